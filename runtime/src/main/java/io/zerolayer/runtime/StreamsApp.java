package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Kafka Streams app with its metrics bound and served. A stream thread that dies of
 * an unexpected error is replaced (it resumes from the last commit); bad records never get
 * that far, they go to the dead-letter topic.
 */
public final class StreamsApp implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StreamsApp.class);

  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;
  private final MetricsServer server;
  private final CountDownLatch running = new CountDownLatch(1);
  private final StreamThreadFailures failures = new StreamThreadFailures();
  private final CompletableFuture<KafkaStreams.State> failure = new CompletableFuture<>();
  private final Counter threadFailures;

  /**
   * Starts the topology and the app's HTTP server.
   *
   * @param server the app's HTTP server, already carrying the app's meters and routes
   */
  public StreamsApp(final Topology topology, final Map<String, Object> props, final MetricsServer server) {
    requireNonNull(topology, "topology");
    this.server = requireNonNull(server, "server");
    threadFailures = Counter.builder("zerolayer.streams.thread.failures")
        .description("Stream threads that failed (each is replaced, or the app stops)").register(server.registry());
    final Properties properties = new Properties();
    properties.putAll(props);
    streams = new KafkaStreams(topology, properties);
    streams.setUncaughtExceptionHandler(e -> {
      // Kafka Streams can replace a stream thread but not the global one: an app whose global
      // store cannot be kept up to date stops (state ERROR) rather than serve stale data.
      final boolean global = Thread.currentThread().getName().endsWith("GlobalStreamThread");
      final StreamThreadExceptionResponse response = failures.failed(e, global, System.currentTimeMillis());
      threadFailures.increment();
      if (response == StreamThreadExceptionResponse.SHUTDOWN_CLIENT) {
        LOG.error(global ? "The global store thread failed; stopping the app" : "A stream thread failed more than "
            + StreamThreadFailures.MAX_FAILURES + " times in " + StreamThreadFailures.WINDOW + "; stopping the app",
            e);
      } else {
        LOG.error("Stream thread failed; replacing it", e);
      }
      return response;
    });
    streams.setStateListener((next, previous) -> {
      if (next == KafkaStreams.State.RUNNING) {
        running.countDown();
      } else if (next == KafkaStreams.State.ERROR) {
        failure.complete(next);
      }
    });
    streamsMetrics = new KafkaStreamsMetrics(streams);
    streamsMetrics.bindTo(server.registry());
    server.readyWhen(this::isReady, "Kafka Streams is not running: starting, restoring its stores, failing or"
        + " stopped (the app's log says which)");
    streams.start();
  }

  /** Waits until every stream thread runs, so its stores can be queried. */
  public void awaitRunning(final Duration timeout) throws TimeoutException, InterruptedException {
    if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new TimeoutException("Streams app did not reach RUNNING within " + timeout + " (state "
          + streams.state() + "); check that the broker is reachable and the topics exist");
    }
  }

  /**
   * Whether the app processes records: it has been running once, is running or rebalancing (a
   * rebalance among healthy members does not take it out of service), and no stream thread
   * failed within {@link StreamThreadFailures#RECOVERY}.
   */
  public boolean isReady() {
    return running.getCount() == 0 && streams.state().isRunningOrRebalancing()
        && !failures.failingAt(System.currentTimeMillis());
  }

  /** Completes when the app stopped on errors (state ERROR): its process is to exit and be restarted. */
  public CompletableFuture<KafkaStreams.State> failure() {
    return failure;
  }

  /** The running streams instance, for interactive queries. */
  public KafkaStreams streams() {
    return streams;
  }

  /** The app's HTTP server. */
  public MetricsServer server() {
    return server;
  }

  @Override
  public void close() {
    // Leaving on purpose hands the tasks over at once; a static member would otherwise keep them
    // until its session expires.
    streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
        .withTimeout(Duration.ofSeconds(20)));
    streamsMetrics.close();
    server.close();
  }
}
