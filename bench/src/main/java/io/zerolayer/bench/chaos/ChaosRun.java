package io.zerolayer.bench.chaos;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * The fault harness: the pipeline's apps as processes on a cluster of three nodes, sequences sent
 * at a steady pace throughout, and faults made one after the other among them, each repaired
 * before the next: a partition leader's broker killed with {@code kill -9} and restarted on its
 * data, an app killed with {@code kill -9} and restarted, the schema registry paused. At the end
 * every sequence is checked against the simulated model's text.
 */
public final class ChaosRun {

  private static final String TENANT = "chaos";
  private static final Duration IN_SYNC_AGAIN = Duration.ofMinutes(3);
  private static final Duration FIRST_ANSWER = Duration.ofMinutes(3);
  private static final Duration ANSWER_WAIT = Duration.ofMinutes(3);

  private final ChaosTarget target;
  private final ChaosOptions options;
  private final PrintStream out;
  private final Random random;

  private ChaosRun(final ChaosTarget target, final ChaosOptions options, final PrintStream out) {
    this.target = target;
    this.options = options;
    this.out = out;
    this.random = new Random(options.seed());
  }

  /** Runs the faults of {@code options} on {@code target}, printing each as it is made. */
  public static ChaosReport run(final ChaosTarget target, final ChaosOptions options, final PrintStream out)
      throws IOException, InterruptedException {
    return new ChaosRun(target, options, out).run();
  }

  private ChaosReport run() throws IOException, InterruptedException {
    final String apiKey = "chaos-" + TenantSignature.newSecret();
    final Path tenants = Files.createDirectories(target.workDir()).resolve("tenants.json");
    Files.writeString(tenants, """
        {"tenants": [{"id": "%s", "apiKeySha256": "%s", "requestsPerSecond": 100000, "tokensPerSecond": 100000000,
         "burstSeconds": 10}]}""".formatted(TENANT, Tenant.hashKey(apiKey)));
    out.println("==> Starting the apps, each in a process of its own: heatmap-streams, 2 token-buffers, 2 routers,"
        + " 2 workers");
    try (ChaosApps apps = ChaosApps.start(target.settings(), target.durability(), tenants, target.workDir(), out);
        Admin admin = Admin.create(target.settings().clientProperties());
        ContractSerdes serdes = new ContractSerdes(target.settings().serdes());
        SteadyLoad load = new SteadyLoad(target.settings(), serdes, TENANT, apiKey, options.pace(),
            options.seed())) {
      final long startedAtMs = System.currentTimeMillis();
      awaitServing(load, startedAtMs);
      out.printf("==> Serving after %,d ms; %d faults under a steady load of one sequence every %d ms%n",
          System.currentTimeMillis() - startedAtMs, options.faults(), options.pace().toMillis());
      final List<FaultRecord> faults = new ArrayList<>();
      for (int n = 0; n < options.faults(); n++) {
        TimeUnit.MILLISECONDS.sleep(300 + random.nextInt(1_700));
        final FaultRecord fault = make(FaultKind.nth(n), apps, admin);
        faults.add(fault);
        out.printf("  [fault %d/%d] %-22s %-34s repaired in %,7d ms; %,d sequences sent%n", n + 1,
            options.faults(), fault.kind().label(), fault.target(),
            fault.repairedMs(), load.sent());
      }
      TimeUnit.SECONDS.sleep(2);
      out.println("==> Checking every sequence's stream against the simulated model's text");
      final LoadVerdict verdict = load.verdict(ANSWER_WAIT);
      if (!verdict.unanswered().isEmpty()) {
        final Path trace = target.workDir().resolve("unanswered-sequences.txt");
        SequenceTrace.write(target.settings(), serdes, verdict.unanswered().stream()
            .map(LoadVerdict.Unanswered::sequenceId).collect(Collectors.toSet()), trace);
        out.println("==> Every committed record of the unanswered sequences: " + trace);
      }
      return new ChaosReport(faults.stream()
          .map(fault -> fault.servingAgainAfter(load.servingAgainAfter(fault.atMs()).orElse(-1))).toList(),
          verdict);
    } catch (final ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Asking the cluster about its partitions failed: " + e.getMessage(), e);
    }
  }

  private void awaitServing(final SteadyLoad load, final long sinceMs) throws InterruptedException {
    final long deadline = System.nanoTime() + FIRST_ANSWER.toNanos();
    while (load.servingAgainAfter(sinceMs).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("No sequence was answered within " + FIRST_ANSWER.toSeconds()
            + " s of the apps being ready; read the apps' logs under " + target.workDir());
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
  }

  private FaultRecord make(final FaultKind kind, final ChaosApps apps, final Admin admin)
      throws InterruptedException, ExecutionException, TimeoutException {
    final long at = System.currentTimeMillis();
    final String what = switch (kind) {
      case LEADER_OF_TOKENS, LEADER_OF_DECISIONS, LEADER_OF_TOKEN_STORE -> killLeader(kind, admin);
      case ROUTER, TOKEN_BUFFER, HEATMAP_STREAMS, WORKER -> killApp(apps.pick(kind.role(), random));
      case REGISTRY_PAUSE -> pauseRegistry();
    };
    return new FaultRecord(kind, what, at, System.currentTimeMillis() - at, -1);
  }

  /** Kills the leader of a random partition of the kind's topic, restarts it and waits until every partition is whole. */
  private String killLeader(final FaultKind kind, final Admin admin)
      throws InterruptedException, ExecutionException, TimeoutException {
    final TopicCatalogue catalogue = target.settings().catalogue();
    final String topic = kind.topic(catalogue);
    final List<TopicPartitionInfo> partitions = describe(admin, Set.of(topic)).get(topic).partitions();
    final TopicPartitionInfo partition = partitions.get(random.nextInt(partitions.size()));
    final int leader = partition.leader().id();
    target.nodes().kill(leader);
    target.nodes().restart(leader);
    awaitEveryPartitionInSync(admin, leader);
    return "broker " + leader + " (" + topic.replace(catalogue.prefix(), "") + "-" + partition.partition() + ")";
  }

  private static String killApp(final AppProcess app) throws InterruptedException {
    app.killAndRestart();
    app.awaitReady(ChaosApps.READY_TIMEOUT);
    return app.name();
  }

  private String pauseRegistry() throws InterruptedException {
    signalRegistry("STOP");
    try {
      TimeUnit.MILLISECONDS.sleep(options.registryPause().toMillis());
    } finally {
      signalRegistry("CONT");
    }
    return "registry (" + options.registryPause().toSeconds() + " s)";
  }

  private void signalRegistry(final String signal) throws InterruptedException {
    try {
      final int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(target.registryPid())).inheritIO()
          .start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill -" + signal + " " + target.registryPid() + " exited with " + exit
            + "; is the registry still running?");
      }
    } catch (final IOException e) {
      throw new IllegalStateException("Cannot run kill(1) to " + signal + " the registry: " + e.getMessage(), e);
    }
  }

  private static void awaitEveryPartitionInSync(final Admin admin, final int restarted)
      throws InterruptedException, ExecutionException, TimeoutException {
    final long deadline = System.nanoTime() + IN_SYNC_AGAIN.toNanos();
    while (true) {
      try {
        final Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
            .get(10, TimeUnit.SECONDS);
        if (describe(admin, topics).values().stream().flatMap(topic -> topic.partitions().stream())
            .allMatch(partition -> partition.leader() != null && partition.isr().size() == partition.replicas().size())) {
          return;
        }
      } catch (final ExecutionException | TimeoutException e) {
        // The restarted node may not answer yet; ask again.
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Some partition was still out of sync " + IN_SYNC_AGAIN.toSeconds()
            + " s after broker " + restarted + " restarted; read its log under the work dir");
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
  }

  private static Map<String, TopicDescription> describe(final Admin admin, final Set<String> topics)
      throws InterruptedException, ExecutionException, TimeoutException {
    return admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS);
  }
}
