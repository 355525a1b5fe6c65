package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.broker.BrokerRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;

/**
 * A Kafka cluster of three or more nodes on 127.0.0.1, each a child JVM in KRaft combined mode
 * (broker and controller; the controllers a static quorum of them all), with three replicas and
 * two in sync for every topic, internal ones included (see {@link BrokerConfig.Quorum}). Unlike
 * {@link KafkaBroker}, a node keeps its data and its ports for the cluster's life: {@link #kill}
 * ends one as {@code kill -9} does and {@link #restart} brings it back on the same data, as a
 * machine that crashed and rebooted. Each node's data is in {@code <workDir>/node-<id>/data}, wiped
 * when the cluster starts.
 */
public final class KafkaCluster implements AutoCloseable {

  private static final Duration STARTUP = KafkaBroker.DEFAULT_STARTUP_TIMEOUT;
  /**
   * A node restarts in a fresh JVM; with only the quick compiler, a restart takes far less of a
   * small machine's CPU from the nodes and apps that keep running (at some cost to the node's
   * peak throughput, which a local cluster does not need).
   */
  private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1");
  private static final String FIX = "read the node's log below; if a port was taken meanwhile, start again. "
      + "If the machine is slow, fewer processes beside the cluster help.";

  /** One node: its files and, while it runs, its JVM. */
  private static final class Member {
    private final int id;
    private final Path dir;
    private final Path properties;
    private final BrokerConfig config;
    private ChildJvm process;
    private int starts;

    Member(final int id, final Path dir, final Path properties, final BrokerConfig config) {
      this.id = id;
      this.dir = dir;
      this.properties = properties;
      this.config = config;
    }
  }

  private final Map<Integer, Member> members;
  private final List<Path> classpath;
  private final String bootstrapServers;

  private KafkaCluster(final Map<Integer, Member> members, final List<Path> classpath) {
    this.members = members;
    this.classpath = classpath;
    this.bootstrapServers = members.values().stream().map(member -> member.config.bootstrapServers())
        .collect(Collectors.joining(","));
  }

  /**
   * Formats and starts {@code nodes} nodes under {@code workDir} and waits until every one of them
   * serves clients; on other ports again when one was taken before its node bound it.
   */
  public static KafkaCluster start(final Path workDir, final int nodes) {
    requireNonNull(workDir, "workDir");
    if (nodes < BrokerConfig.Quorum.REPLICAS) {
      throw new IllegalArgumentException("A cluster of several nodes needs at least " + BrokerConfig.Quorum.REPLICAS
          + " (topics keep three replicas); for one node use KafkaBroker");
    }
    final List<Path> logs = IntStream.rangeClosed(1, nodes)
        .mapToObj(id -> ChildJvm.logFile(nodeName(id), nodeDir(workDir, id))).toList();
    return PortRetry.start("the Kafka cluster", logs, () -> startOnce(workDir, nodes));
  }

  private static KafkaCluster startOnce(final Path workDir, final int nodes) {
    final List<Integer> ports = FreePorts.pick(2 * nodes);
    final List<String> voters = new ArrayList<>();
    for (int id = 1; id <= nodes; id++) {
      voters.add(id + "@" + BrokerConfig.HOST + ":" + ports.get(2 * (id - 1) + 1));
    }
    final String clusterId = Uuid.randomUuid().toString();
    final List<Path> classpath = BrokerRuntime.classpath();
    final Map<Integer, Member> members = new LinkedHashMap<>();
    for (int id = 1; id <= nodes; id++) {
      final Path dir = nodeDir(workDir, id);
      final BrokerConfig config = new BrokerConfig(ports.get(2 * (id - 1)), ports.get(2 * (id - 1) + 1),
          dir.resolve("data"), null, new BrokerConfig.Quorum(id, voters));
      final Path properties = KafkaBroker.writeConfig(dir, config);
      KafkaBroker.format(dir, classpath, properties, clusterId, false);
      members.put(id, new Member(id, dir, properties, config));
    }
    final KafkaCluster cluster = new KafkaCluster(members, classpath);
    try {
      members.values().forEach(cluster::launch);
      for (final Member member : members.values()) {
        cluster.awaitServing(member);
      }
      System.err.println("Kafka cluster of " + nodes + " nodes answers on " + cluster.bootstrapServers);
      return cluster;
    } catch (final RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** Every node's client listener, comma-separated. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The nodes' ids, 1 to the cluster's size. */
  public List<Integer> nodeIds() {
    return List.copyOf(members.keySet());
  }

  /** Whether node {@code id}'s JVM runs. */
  public boolean isRunning(final int id) {
    final Member member = member(id);
    return member.process != null && member.process.isAlive();
  }

  /** Process id of node {@code id}'s JVM; fails if it does not run. */
  public long pid(final int id) {
    if (!isRunning(id)) {
      throw new IllegalStateException("Node " + id + " does not run");
    }
    return member(id).process.pid();
  }

  /** Ends node {@code id} as {@code kill -9} does and waits until its JVM is gone; its data stays. */
  public void kill(final int id) {
    final Member member = member(id);
    if (member.process != null) {
      member.process.kill();
    }
  }

  /**
   * Starts node {@code id} again on its data and ports, and waits until it has registered with
   * the controllers and serves clients. Catching up on replicas is the caller's to wait for.
   */
  public void restart(final int id) {
    final Member member = member(id);
    if (isRunning(id)) {
      throw new IllegalStateException("Node " + id + " still runs; kill it first");
    }
    launch(member);
    awaitServing(member);
  }

  /**
   * The caller stops the cluster itself, after whatever uses it; each node still ends with this
   * JVM, through ParentGuard.
   */
  public void stopOnlyWhenAsked() {
    members.values().stream().filter(member -> member.process != null)
        .forEach(member -> member.process.stopOnlyWhenAsked());
  }

  /**
   * Stops every node cleanly (SIGTERM, then SIGKILL after 15 s) and waits until they are gone. The
   * nodes stop at once: one by one, the last would wait for a quorum that has already left.
   */
  @Override
  public void close() {
    CompletableFuture.allOf(members.values().stream().filter(member -> member.process != null)
        .map(member -> CompletableFuture.runAsync(member.process::stop)).toArray(CompletableFuture[]::new)).join();
  }

  private Member member(final int id) {
    final Member member = members.get(id);
    if (member == null) {
      throw new IllegalArgumentException("No node " + id + "; the nodes are " + members.keySet());
    }
    return member;
  }

  private static Path nodeDir(final Path workDir, final int id) {
    return workDir.toAbsolutePath().resolve("node-" + id);
  }

  /** A node's JVM, and its log's name, when first started. */
  private static String nodeName(final int id) {
    return "kafka-node-" + id;
  }

  private void launch(final Member member) {
    member.starts++;
    final String name = nodeName(member.id) + (member.starts == 1 ? "" : "-start-" + member.starts);
    member.process = ChildJvm.start(KafkaBroker.spec(name, BrokerRuntime.KAFKA_MAIN_CLASS,
        List.of(member.properties.toString()), classpath, null, JVM_OPTIONS), member.dir);
  }

  private void awaitServing(final Member member) {
    final String node = "Kafka node " + member.id + " on " + member.config.bootstrapServers();
    try (BrokerProbe probe = new BrokerProbe(member.config.brokerPort(),
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, member.config.bootstrapServers()));
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            AdminClientConfig.CLIENT_ID_CONFIG, "zerolayer-cluster-probe"))) {
      StartupWait.until(node, member.process, STARTUP, () -> probe.ready() && registered(admin, member.id), FIX);
    }
  }

  private static boolean registered(final Admin admin, final int id) throws Exception {
    return admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).stream().mapToInt(Node::id)
        .anyMatch(node -> node == id);
  }
}
