package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.stack.LocalCluster;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.fault.FaultInjector;
import io.zerolayer.fleet.load.KafkaRequestSender;
import io.zerolayer.fleet.load.RequestOutcome;
import io.zerolayer.fleet.load.ThreadScheduler;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One policy's turn: topics of its own, a fresh pipeline whose router runs that policy, a fresh
 * fleet, then the workload with the fault schedule injected from the load's start, while the
 * router's decisions are read back and the fleet's headroom is sampled.
 */
final class PolicyRunner {

  static final String TENANT = "bench";
  static final String API_KEY = "bench-key";
  /** Limits far above what the fleet serves: the benchmark measures routing, not the tenant's rate limit. */
  static final TenantDirectory TENANTS = TenantDirectory.of(List.of(
      new Tenant(TENANT, Tenant.hashKey(API_KEY), 100_000, 100_000_000, 10)));

  private static final Duration HEATMAP_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration FINISH_MARGIN = Duration.ofSeconds(60);

  private final LocalCluster cluster;
  private final Path stateDir;
  private final PolicyBenchPlan plan;
  private final String runId;
  private final PrintStream out;
  private OptionalDouble jitShare = OptionalDouble.empty();

  /**
   * @param stateDir where each policy's streams apps keep their stores, one folder per topic prefix
   * @param runId tells this invocation's topics from earlier ones on the same broker
   */
  PolicyRunner(final LocalCluster cluster, final Path stateDir, final PolicyBenchPlan plan, final String runId,
      final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.stateDir = requireNonNull(stateDir, "stateDir");
    this.plan = requireNonNull(plan, "plan");
    this.runId = requireNonNull(runId, "runId");
    this.out = requireNonNull(out, "out");
  }

  /** Runs the contender labelled {@code policy} (see {@link Contender}). */
  PolicyRun run(final String policy) throws Exception {
    final long startNanos = System.nanoTime();
    final OptionalLong compiledBefore = JitClock.compiledMillis();
    final PolicyRun run = provisionAndRun(Contender.parse(policy), startNanos);
    final OptionalLong compiled = JitClock.since(compiledBefore);
    final double elapsedMs = (System.nanoTime() - startNanos) / 1e6;
    jitShare = compiled.isPresent() ? OptionalDouble.of(compiled.getAsLong() / elapsedMs) : OptionalDouble.empty();
    step(policy, Figure.format("Done in %.1f s", elapsedMs / 1000) + (compiled.isPresent()
        ? Figure.format("; the JIT compiled for %.1f s of it", compiled.getAsLong() / 1000.0) : ""));
    return run;
  }

  /** The share of the last run's time this JVM's JIT compiled; empty before a run or when the JVM does not say. */
  OptionalDouble lastJitShare() {
    return jitShare;
  }

  private PolicyRun provisionAndRun(final Contender contender, final long startNanos) throws Exception {
    final String policy = contender.label();
    final TopicCatalogue catalogue = new TopicCatalogue("bench-" + runId + "-" + contender.namePart() + "-");
    step(policy, "Provisioning topics with prefix " + catalogue.prefix() + ": "
        + cluster.provision(catalogue).summary());
    final ClusterSettings settings = cluster.settings(catalogue);
    step(policy, "Starting heatmap-streams, token-buffer (cut-over " + (contender.cutover() ? "on" : "off")
        + "), a router with the " + contender.policy() + " policy, and " + plan.fleet());
    final FleetShape shape = plan.fleet();
    try (Pipeline pipeline = Pipeline.start(settings, stateDir.resolve(catalogue.prefix()), false, TENANTS,
            contender.newPolicy(), contender.cutover(), Map.of(), StreamsDurability.SINGLE_BROKER);
        Fleet fleet = Fleet.start(settings, FleetShape.ID_PREFIX, shape.instances(), shape.zoneNames(),
            shape.classes(), new SimpleMeterRegistry(), shape.coldIds(), Fleet.MODEL)) {
      pipeline.awaitHeatmap(fleet.instanceIds(), HEATMAP_TIMEOUT);
      step(policy, Figure.format("Ready after %.1f s; load for %d s", (System.nanoTime() - startNanos) / 1e9,
          plan.workload().length().toSeconds()));
      return load(contender, settings, fleet);
    }
  }

  private PolicyRun load(final Contender contender, final ClusterSettings settings, final Fleet fleet)
      throws Exception {
    final String policy = contender.label();
    final Duration length = plan.workload().length();
    try (DecisionLog decisions = new DecisionLog(settings);
        ThreadScheduler scheduler = new ThreadScheduler(2);
        KafkaRequestSender sender = new KafkaRequestSender(settings, TENANT, API_KEY, scheduler::nanoTime);
        FaultInjector injector = new FaultInjector(fleet, plan.faults());
        HeadroomLog headroom = HeadroomLog.start(fleet)) {
      final RunClock clock = RunClock.now();
      final Workload.Running running = plan.workload().start(sender, scheduler, contender.namePart(), out);
      injector.start(Instant.ofEpochMilli(clock.originMs()));
      final List<RequestOutcome> outcomes;
      try (LoadProgress progress = new LoadProgress(out, policy, plan.warmup(), length, running,
          clock.originNanos()).start()) {
        outcomes = running.finished().get(length.plus(plan.workload().timeout()).plus(FINISH_MARGIN).toMillis(),
            TimeUnit.MILLISECONDS);
      }
      final long start = clock.originMs();
      return new PolicyRun(policy, outcomes, decisions.drain(), injector.applied(), headroom.samples(),
          plan.fleet().coldIds(), clock, start, start + plan.warmup().toMillis(), start + length.toMillis());
    }
  }

  private void step(final String policy, final String message) {
    out.println("==> [" + policy + "] " + message);
  }
}
