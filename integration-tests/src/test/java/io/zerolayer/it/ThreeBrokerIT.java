package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.local.KafkaCluster;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.ReplicatedCluster;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.tokenbuffer.TokenBufferTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The pipeline on three brokers, every topic with three replicas and two in sync: while sequences
 * stream at a steady pace, the broker leading a partition of the token log, of the decisions or of
 * the token store's changelog is killed with {@code kill -9} and started again on its data, and a
 * router, a token-buffer and a worker are each killed too. Every client still gets every token
 * once and in order, and each sequence's text is the simulated model's hash chain. The time from
 * each fault until the pipeline served again is printed.
 *
 * <p>A broker's restart and the replicas' catch-up take 20 to 40 s on a 2-core machine, so
 * {@code mvn verify} makes 4 broker faults and no app's (the apps' kills on one broker are
 * {@code RepeatedCrashIT}'s), without the apps' extra processes;
 * {@code -Dzerolayer.it.broker-faults=30 -Dzerolayer.it.app-faults=2} makes the full run.
 */
@ExtendWith(TestCluster.class)
class ThreeBrokerIT {

  private static final int BROKER_FAULTS = Integer.getInteger("zerolayer.it.broker-faults", 4);
  private static final int APP_FAULTS_EACH = Integer.getInteger("zerolayer.it.app-faults", 0);
  private static final Duration IN_SYNC_AGAIN = Duration.ofSeconds(90);
  /** Every token is written to three brokers here: half the single broker's pace keeps the machine from drowning. */
  private static final Duration PACE = Duration.ofMillis(250);

  private final Random random = new Random(23);

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void shouldLoseNothingThroughLeaderKillsAndKillsOfEveryApp(final TestCluster.Handle shared)
      throws Exception {
    try (ReplicatedCluster cluster = ReplicatedCluster.start(shared);
        PipelineRig rig = PipelineRig.on(cluster.handle()).fleet(2, List.of("zone-b"), GpuProfile.standard()).start();
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.nodes().bootstrapServers()))) {
      final String group = PipelineNames.routerGroup(rig.catalogue());
      final ChildApp[] router = new ChildApp[1];
      final ChildApp[] tokenBuffer = new ChildApp[1];
      final ChildApp[] worker = new ChildApp[1];
      if (APP_FAULTS_EACH > 0) {
        router[0] = rig.open(ChildProcesses.router(rig, "t"));
        router[0].awaitReady(Duration.ofSeconds(90));
        Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);
        tokenBuffer[0] = rig.open(ChildProcesses.tokenBuffer(rig, "token-buffer-2"));
        tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
        worker[0] = rig.open(ChildProcesses.fleet(rig));
        Awaits.routerSees(rig.pipeline(), List.of("proc-0"));
      }
      assertEveryTopicHasThreeReplicasTwoInSync(admin);

      final List<String> targets = List.of(rig.catalogue().name(Topics.TOKENS), rig.catalogue().name(Topics.DECISIONS),
          PipelineNames.tokenBufferApplicationId(rig.catalogue()) + "-" + TokenBufferTopology.TOKEN_STORE
              + "-changelog");
      final SteadyStreams streams = new SteadyStreams(rig, PACE);
      final List<Fault> faults = new ArrayList<>();
      final List<Runnable> schedule = schedule(targets, faults, cluster.nodes(), admin, rig, router, tokenBuffer,
          worker, group);
      final int[] next = {0};
      streams.runAlongside(schedule.size(), () -> schedule.get(next[0]++).run());

      streams.assertEveryStreamWhole();
      report(faults, streams);
      assertThat(faults).hasSize(BROKER_FAULTS + 3 * APP_FAULTS_EACH);
      assertEveryTopicHasThreeReplicasTwoInSync(admin);
    }
  }

  /** One fault made: what, when, and how long the partitions took to be whole again (brokers only). */
  private record Fault(String what, long atMs, long inSyncAfterMs) {
  }

  /** The broker kills spread over the targets, with each app's kills among them at even spaces. */
  private List<Runnable> schedule(final List<String> targets, final List<Fault> faults, final KafkaCluster nodes,
      final Admin admin, final PipelineRig rig, final ChildApp[] router, final ChildApp[] tokenBuffer,
      final ChildApp[] worker, final String group) {
    final List<Runnable> schedule = new ArrayList<>();
    for (int i = 0; i < BROKER_FAULTS; i++) {
      final String topic = targets.get(i % targets.size());
      schedule.add(() -> killLeader(topic, nodes, admin, faults));
    }
    final List<Runnable> apps = new ArrayList<>();
    for (int i = 0; i < APP_FAULTS_EACH; i++) {
      apps.add(() -> restartApp("router", router, faults, () -> ChildProcesses.router(rig, "t"), rig, () ->
          Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2)));
      apps.add(() -> restartApp("token-buffer", tokenBuffer, faults,
          () -> ChildProcesses.tokenBuffer(rig, "token-buffer-2"), rig, () -> { }));
      apps.add(() -> restartApp("worker", worker, faults, () -> ChildProcesses.fleet(rig), rig,
          () -> Awaits.routerSees(rig.pipeline(), List.of("proc-0"))));
    }
    if (apps.isEmpty()) {
      return schedule;
    }
    final int every = schedule.size() / apps.size();
    for (int i = 0; i < apps.size(); i++) {
      schedule.add(i * (every + 1) + every, apps.get(i));
    }
    return schedule;
  }

  private interface Start {
    ChildApp start() throws Exception;
  }

  private void killLeader(final String topic, final KafkaCluster nodes, final Admin admin, final List<Fault> faults) {
    try {
      final List<TopicPartitionInfo> partitions = describe(admin, List.of(topic)).get(topic).partitions();
      final TopicPartitionInfo partition = partitions.get(random.nextInt(partitions.size()));
      final int leader = partition.leader().id();
      final long at = System.currentTimeMillis();
      nodes.kill(leader);
      nodes.restart(leader);
      awaitEveryPartitionInSync(admin);
      faults.add(new Fault("broker " + leader + ", leader of " + topic + "-" + partition.partition(), at,
          System.currentTimeMillis() - at));
    } catch (final Exception e) {
      throw new AssertionError("Killing the leader of " + topic + " failed", e);
    }
  }

  private static void restartApp(final String name, final ChildApp[] app, final List<Fault> faults,
      final Start start, final PipelineRig rig, final Runnable awaitServing) {
    try {
      final long at = System.currentTimeMillis();
      app[0].kill();
      app[0] = rig.open(start.start());
      app[0].awaitReady(Duration.ofSeconds(120));
      awaitServing.run();
      faults.add(new Fault(name, at, -1));
    } catch (final Exception e) {
      throw new AssertionError("Restarting the " + name + " failed", e);
    }
  }

  private static void awaitEveryPartitionInSync(final Admin admin) {
    await().atMost(IN_SYNC_AGAIN).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .until(() -> describe(admin, topics(admin)).values().stream().flatMap(topic -> topic.partitions().stream())
            .allMatch(partition -> partition.isr().size() == 3 && partition.leader() != null));
  }

  private static void assertEveryTopicHasThreeReplicasTwoInSync(final Admin admin) throws Exception {
    final Set<String> topics = topics(admin);
    assertThat(topics).contains("__consumer_offsets", "__transaction_state")
        .anyMatch(topic -> topic.endsWith("-changelog"));
    assertThat(describe(admin, topics).values()).allSatisfy(topic -> assertThat(topic.partitions())
        .as("replicas of %s", topic.name()).allSatisfy(partition -> assertThat(partition.replicas()).hasSize(3)));
    final Map<ConfigResource, Config> configs = admin.describeConfigs(topics.stream()
        .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList()).all().get();
    assertThat(configs).allSatisfy((resource, config) -> assertThat(config.get("min.insync.replicas").value())
        .as("min.insync.replicas of %s", resource.name()).isEqualTo("2"));
  }

  private static Set<String> topics(final Admin admin) throws Exception {
    return admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(10, TimeUnit.SECONDS);
  }

  private static Map<String, TopicDescription> describe(final Admin admin, final Collection<String> topics)
      throws Exception {
    return admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
  }

  private static void report(final List<Fault> faults, final SteadyStreams streams) {
    final List<Long> serving = faults.stream().map(fault -> streams.servingAgainAfter(fault.atMs()).orElse(-1))
        .sorted().toList();
    final List<Long> inSync = faults.stream().map(Fault::inSyncAfterMs).filter(ms -> ms >= 0).sorted().toList();
    System.out.println("Three brokers: " + faults.size() + " faults over " + streams.sent() + " sequences, "
        + "0 lost, duplicated, reordered or spliced");
    faults.forEach(fault -> System.out.println("  " + fault.what() + ": serving again after "
        + streams.servingAgainAfter(fault.atMs()).orElse(-1) + " ms"
        + (fault.inSyncAfterMs() < 0 ? "" : ", every partition in sync after " + fault.inSyncAfterMs() + " ms")));
    System.out.println("  serving again after a fault, ms: p50 " + percentile(serving, 50) + ", p99 "
        + percentile(serving, 99) + "; every partition in sync after a broker's restart, ms: p50 "
        + percentile(inSync, 50) + ", p99 " + percentile(inSync, 99));
    assertThat(serving).as("every fault followed by service").allMatch(ms -> ms >= 0);
  }

  private static long percentile(final List<Long> sorted, final int percentile) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
  }
}
