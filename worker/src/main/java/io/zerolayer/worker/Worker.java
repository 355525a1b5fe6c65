package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Partitions;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.DeadLetters;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker side of one instance: reads the partitions of the dispatch and command topics
 * its instance id hashes to, skips other instances' records, runs each task on the engine, and
 * stops a task on {@code CANCEL} (ending its sequence when the cancel says the client went away,
 * see {@link ActiveRuns}). Records it cannot read go to the dead-letter topic.
 */
public final class Worker implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
  /** How often a task still in the engine's queue tells token-buffer it is alive. */
  private static final long HEARTBEAT_INTERVAL_MS = 500;
  private static final long RETRY_BACKOFF_MS = 500;

  private final String instanceId;
  private final InferenceEngine engine;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> deadLetters;
  private final WorkerOutput output;
  private final StreamCatchUp catchUp;
  private final ContractSerdes serdes;
  private final Deserializer<DispatchTask> tasks;
  private final Deserializer<InstanceCommand> commands;
  private final String dispatchTopic;
  private final String deadLetterTopic;
  private final ExecutorService runs;
  private final ScheduledExecutorService heartbeats;
  private final ActiveRuns active = new ActiveRuns();
  private final Thread loop;
  private final List<KafkaClientMetrics> clientMetrics;
  private final Counter deadLettered;
  private volatile boolean running = true;
  private final CompletableFuture<Throwable> failure = new CompletableFuture<>();

  /**
   * @param maxConcurrentTasks how many sequences the engine generates at once
   */
  public Worker(final String instanceId, final ClusterSettings cluster, final ContractSerdes serdes,
      final InferenceEngine engine, final int maxConcurrentTasks, final MeterRegistry meters) {
    this.instanceId = requireNonNull(instanceId, "instanceId");
    this.engine = requireNonNull(engine, "engine");
    final TopicCatalogue catalogue = cluster.catalogue();
    dispatchTopic = catalogue.name(Topics.DISPATCH);
    deadLetterTopic = catalogue.name(Topics.INFERENCE_DLQ);
    tasks = serdes.value(Topics.DISPATCH).deserializer();
    commands = serdes.value(Topics.COMMANDS).deserializer();
    this.serdes = requireNonNull(serdes, "serdes");
    output = new WorkerOutput(cluster, serdes);
    catchUp = new StreamCatchUp(cluster, serdes);
    consumer = new KafkaConsumer<>(consumerProps(cluster, instanceId), new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
    consumer.assign(List.of(
        new TopicPartition(dispatchTopic, Partitions.forKey(instanceId, Topics.DISPATCH.partitions())),
        new TopicPartition(catalogue.name(Topics.COMMANDS), Partitions.forKey(instanceId, Topics.COMMANDS.partitions()))));
    final Map<String, Object> dlqProps = new HashMap<>(cluster.clientProperties());
    dlqProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    deadLetters = new KafkaProducer<>(dlqProps, new ByteArraySerializer(), new ByteArraySerializer());
    clientMetrics = List.of(new KafkaClientMetrics(consumer), new KafkaClientMetrics(deadLetters));
    clientMetrics.forEach(m -> m.bindTo(meters));
    deadLettered = Counter.builder("zerolayer.worker.dead.lettered")
        .description("Dispatch and command records this worker could not read, sent to the dead-letter topic")
        .tag("instance", instanceId)
        .register(meters);
    heartbeats = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "worker-" + instanceId + "-heartbeat"));
    heartbeats.scheduleAtFixedRate(active::heartbeat, HEARTBEAT_INTERVAL_MS, HEARTBEAT_INTERVAL_MS,
        TimeUnit.MILLISECONDS);
    runs = Executors.newFixedThreadPool(maxConcurrentTasks, r -> new Thread(r, "worker-" + instanceId + "-task"));
    loop = new Thread(this::poll, "worker-" + instanceId);
    loop.start();
  }

  private static Map<String, Object> consumerProps(final ClusterSettings cluster, final String instanceId) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "zerolayer-worker-" + instanceId);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // A task is taken as soon as the router wrote it, not at its transaction's commit, which is
    // the largest part of the way to the first token. A task of a transaction that is then aborted
    // (the router re-decides the request) may run too: its claim and tokens are an attempt of the
    // same request under the same epoch, and the tokens log's rules give the stream to one run
    // only, so no reader gets a token of two (TokenStreamRules).
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
    return props;
  }

  private void poll() {
    try {
      output.readAhead(serdes);
      while (running) {
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
        handleAll(records);
        if (!records.isEmpty()) {
          consumer.commitSync();
        }
      }
    } catch (final WakeupException | InterruptedException e) {
      // closing
    } catch (final RuntimeException e) {
      LOG.error("Worker {} stopped reading its tasks: {}", instanceId, e.toString(), e);
      failure.complete(e);
    } finally {
      consumer.close();
    }
  }

  /**
   * Handles a poll's records, partition by partition. While the registry is down, every partition
   * is rewound to its first record not handled yet, so that the next poll reads them again and
   * the commit that follows passes none of them (a {@code CANCEL} is never skipped).
   */
  private void handleAll(final ConsumerRecords<byte[], byte[]> records) throws InterruptedException {
    SchemaRegistryUnavailableException unavailable = null;
    for (final TopicPartition partition : records.partitions()) {
      for (final ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
        if (unavailable == null) {
          try {
            handle(record);
            continue;
          } catch (final SchemaRegistryUnavailableException e) {
            unavailable = e;
          }
        }
        LOG.warn("Schema registry unavailable; reading {}-{} again from offset {} shortly", record.topic(),
            record.partition(), record.offset());
        consumer.seek(partition, record.offset());
        break;
      }
    }
    if (unavailable != null) {
      TimeUnit.MILLISECONDS.sleep(RETRY_BACKOFF_MS);
    }
  }

  private void handle(final ConsumerRecord<byte[], byte[]> record) {
    try {
      if (record.value() == null) {
        throw new SerializationException("Record on " + record.topic() + " has no value (a tombstone)");
      }
      if (record.key() == null) {
        throw new SerializationException("Record on " + record.topic() + " without a key (its instance id)");
      }
      if (record.topic().equals(dispatchTopic)) {
        start(tasks.deserialize(record.topic(), record.value()));
      } else {
        command(commands.deserialize(record.topic(), record.value()));
      }
    } catch (final SerializationException e) {
      LOG.warn("Dead-lettering record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      deadLetters.send(DeadLetters.of(deadLetterTopic, record, e));
      deadLettered.increment();
    }
  }

  private void start(final DispatchTask task) {
    if (!instanceId.equals(task.getInstanceId())) {
      return;
    }
    final TaskRun run = new TaskRun(task, engine, output, catchUp);
    active.add(run);
    runs.execute(() -> {
      try {
        run.run();
      } finally {
        active.finished(run);
      }
    });
  }

  private void command(final InstanceCommand command) {
    if (!instanceId.equals(command.getInstanceId())) {
      return;
    }
    if (command.getType() == CommandType.CANCEL) {
      active.cancel(command);
      return;
    }
    engine.onCommand(command);
  }

  /** Whether the worker reads its tasks: its loop has not stopped on an error. */
  public boolean isReady() {
    return !failure.isDone();
  }

  /**
   * For each sequence the engine is generating now, the tokens it may still generate: its
   * output limit less its tokens so far ({@link io.zerolayer.contract.telemetry.RunningRequestsPage}).
   */
  public Map<String, Integer> runningTokensToLimit() {
    return active.tokensToLimit();
  }

  /** Completes with the error that stopped the worker's loop, if one does. */
  public CompletableFuture<Throwable> failure() {
    return failure;
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    heartbeats.shutdownNow();
    active.cancelAll();
    runs.shutdown();
    try {
      loop.join(Duration.ofSeconds(5).toMillis());
      runs.awaitTermination(5, TimeUnit.SECONDS);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    output.close();
    catchUp.close();
    deadLetters.close(Duration.ofSeconds(5));
    clientMetrics.forEach(KafkaClientMetrics::close);
  }
}
