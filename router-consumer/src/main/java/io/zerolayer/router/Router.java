package io.zerolayer.router;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.internal.Decider;
import io.zerolayer.router.internal.ExpectedWork;
import io.zerolayer.router.internal.HeatmapView;
import io.zerolayer.router.internal.HoldsFeed;
import io.zerolayer.router.internal.LocalDispatches;
import io.zerolayer.router.internal.LocalView;
import io.zerolayer.router.internal.PrefixIndex;
import io.zerolayer.router.internal.RecentCutovers;
import io.zerolayer.router.internal.RecordWriter;
import io.zerolayer.router.internal.ReplyTopicDirectory;
import io.zerolayer.router.internal.RequestDecider;
import io.zerolayer.router.internal.RequestLookup;
import io.zerolayer.router.internal.RequestRouter;
import io.zerolayer.router.internal.RequestValidator;
import io.zerolayer.router.internal.RouterMeters;
import io.zerolayer.router.internal.RouterRecords;
import io.zerolayer.router.internal.RoutingTransaction;
import io.zerolayer.router.internal.SequenceHolds;
import io.zerolayer.router.internal.StallDecider;
import io.zerolayer.router.internal.StallRouter;
import io.zerolayer.router.internal.TransactionMeters;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.RoutingPolicy;
import io.zerolayer.runtime.TopicTail;
import io.zerolayer.runtime.WrittenSchemas;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One router: waits until its heatmap view has read the score topic to its end, then reads
 * requests, stall reports and sequence holds as a member of the routers' consumer group. The
 * requests of each commit interval, their decisions, dispatches and commands, and the consumed
 * offsets are one Kafka transaction, so a router killed at any point neither loses a request
 * nor dispatches one twice.
 */
public final class Router implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Router.class);
  private static final Duration IDLE_POLL = Duration.ofMillis(100);

  private final HeatmapView heatmap;
  private final TopicTail<KvCacheEvent> kvEvents;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final KafkaProducer<byte[], byte[]> producer;
  private final RequestRouter requestRouter;
  private final RequestLookup lookup;
  private final StallRouter stallRouter;
  private final String stallTopic;
  private final HoldsFeed holdsFeed;
  private final ReplyTopicDirectory replyTopics;
  private final List<KafkaClientMetrics> clientMetrics;
  private final RoutingTransaction transaction;
  private final String requestTopic;
  private final Thread loop;
  private final CountDownLatch started = new CountDownLatch(1);
  private final CompletableFuture<Throwable> failure = new CompletableFuture<>();
  private volatile boolean running = true;

  /**
   * Starts the router; it takes requests once its heatmap view is ready.
   *
   * @param tenants the tenants it serves
   */
  public Router(final ClusterSettings cluster, final RouterConfig config, final RoutingPolicy policy,
      final TenantDirectory tenants, final MeterRegistry registry) {
    requireNonNull(policy, "policy");
    final String routerId = config.routerId();
    // A record read or written while the registry does not answer aborts the transaction before
    // the broker's timeout would, which would fence this router's producer for good.
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes(),
        Duration.ofMillis(config.transactionTimeoutMs() / 2));
    WrittenSchemas.ofTopics(serdes, cluster.catalogue(), List.of(Topics.DECISIONS, Topics.DISPATCH, Topics.COMMANDS,
        Topics.SEQUENCE_HOLDS, Topics.TOKENS));
    heatmap = new HeatmapView(cluster, serdes);
    consumer = new KafkaConsumer<>(RouterClients.consumerProps(cluster, routerId, config),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    producer = new KafkaProducer<>(RouterClients.producerProps(cluster, routerId, config), new ByteArraySerializer(),
        new ByteArraySerializer());
    final Decider decider = new Decider(policy, config.defaultRetryAfterMs(), config.maxAttempts(),
        config.maxQueueWaitMs());
    final RouterRecords records = new RouterRecords(routerId);
    final RecordWriter writer = new RecordWriter(cluster.catalogue(), serdes);
    final RouterMeters meters = new RouterMeters(registry);
    final PrefixIndex prefixes = new PrefixIndex(config.prefixIndexBlocks());
    kvEvents = new TopicTail<>(cluster, cluster.catalogue().name(Topics.KV_EVENTS),
        serdes.value(Topics.KV_EVENTS).deserializer(), event -> {
          prefixes.apply(event);
          meters.prefixEvent();
        },
        routerId + "-kv-events");
    final RecentCutovers cutovers = new RecentCutovers(config.avoidAfterCutovers(), config.avoidWindow(),
        config.avoidHold());
    final LocalView view = new LocalView(new LocalDispatches(), new ExpectedWork(), cutovers);
    lookup = new RequestLookup(cluster, serdes);
    final SequenceHolds holds = new SequenceHolds();
    replyTopics = new ReplyTopicDirectory(cluster);
    holdsFeed = new HoldsFeed(consumer, holds, cluster.catalogue(), serdes, meters);
    requestRouter = new RequestRouter(cluster.catalogue(), serdes,
        new RequestDecider(new RequestValidator(config.maxOutputTokens(), config.maxPromptChars(),
            internalTopics(cluster)), tenants, config.gatewaySignature(), decider, view, holds, replyTopics::exists,
            prefixes),
        heatmap, records, writer, meters, lookup);
    stallRouter = new StallRouter(cluster.catalogue(), serdes, lookup, new StallDecider(decider, view),
        heatmap, records, writer, meters, config.stallHold());
    transaction = new RoutingTransaction(consumer, producer, new TransactionMeters(registry), config.commitInterval(),
        committed -> {
          stallRouter.settle(committed);
          requestRouter.settle(committed);
        });
    clientMetrics = List.of(new KafkaClientMetrics(consumer), new KafkaClientMetrics(producer));
    clientMetrics.forEach(m -> m.bindTo(registry));
    requestTopic = cluster.catalogue().name(Topics.REQUESTS);
    stallTopic = cluster.catalogue().name(Topics.STALLS);
    loop = new Thread(this::run, routerId);
    loop.start();
  }

  /** The catalogue's topics but the response topic: no client may have its replies written there. */
  private static Set<String> internalTopics(final ClusterSettings cluster) {
    return Topics.ALL.stream().filter(t -> t != Topics.RESPONSES).map(cluster.catalogue()::name)
        .collect(Collectors.toSet());
  }

  /** Waits until the router takes requests (its heatmap view is ready). */
  public boolean awaitStarted(final Duration timeout) throws InterruptedException {
    return started.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether the router takes requests: its heatmap view has read the score topic to its end. */
  public boolean isStarted() {
    return started.getCount() == 0;
  }

  /** Whether the router is taking requests now: started, and not stopped by an error. */
  public boolean isReady() {
    return isStarted() && !failure.isDone();
  }

  /** Completes with the error that stopped the router, if one does. */
  public CompletableFuture<Throwable> failure() {
    return failure;
  }

  /** The router's current heatmap snapshot (immutable). */
  public Heatmap heatmap() {
    return heatmap.current();
  }

  private void run() {
    try {
      while (running && !heatmap.awaitReady(Duration.ofMillis(200))) {
        failIfHeatmapFailed();
      }
      final long initNanos = System.nanoTime();
      // Fences a predecessor with the same transactional id, aborting its open transaction.
      producer.initTransactions();
      consumer.subscribe(List.of(requestTopic, stallTopic, holdsFeed.topic()),
          transaction.committingBefore(holdsFeed));
      started.countDown();
      LOG.info("Router {} takes requests (transactions initialised, any predecessor fenced, in {} ms)",
          loop.getName(), (System.nanoTime() - initNanos) / 1_000_000);
      while (running) {
        failIfHeatmapFailed();
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(transaction.pollTimeout(IDLE_POLL));
        if (!records.isEmpty()) {
          transaction.route(records, this::route);
        }
        transaction.commitIfDue();
        holdsFeed.resumeCaughtUp();
      }
      commitWhileClosing();
    } catch (final WakeupException | InterruptedException e) {
      commitWhileClosing();
    } catch (final RuntimeException | Error e) {
      if (running) {
        LOG.error("Router {} stopped: {}; restart its process", loop.getName(), e.toString(), e);
        failure.complete(e);
      } else {
        LOG.debug("Router {} interrupted while closing: {}", loop.getName(), e.toString());
      }
    } finally {
      // A static member (see RouterClients) leaves the group only when told to.
      consumer.close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP));
    }
  }

  /** Closing: what was routed so far stands, rather than waiting out the transaction timeout. */
  private void commitWhileClosing() {
    try {
      transaction.commit();
    } catch (final RuntimeException e) {
      LOG.warn("Router {} could not commit its last transaction while closing; the broker aborts it after the"
          + " transaction timeout and its records are routed again: {}", loop.getName(), e.toString());
    }
  }

  private void route(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    if (record.topic().equals(stallTopic)) {
      stallRouter.route(record, out);
    } else if (record.topic().equals(holdsFeed.topic())) {
      holdsFeed.apply(record, out);
    } else {
      requestRouter.route(record, out);
    }
  }

  private void failIfHeatmapFailed() {
    if (heatmap.failed()) {
      throw new IllegalStateException("the heatmap view stopped reading the score topic; decisions would use a"
          + " frozen heatmap");
    }
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      loop.join(Duration.ofSeconds(10).toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
    lookup.close();
    replyTopics.close();
    heatmap.close();
    kvEvents.close();
    clientMetrics.forEach(KafkaClientMetrics::close);
  }
}
