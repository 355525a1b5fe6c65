package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.bench.ThroughputBenchmark.Contender;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.LocalCluster;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsDurability;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * heatmap-streams on the real local broker, two ways: how fast it consumes a telemetry backlog
 * next to a pass-through app with the same streams settings (the floor set by the broker, the
 * transactions and the machine), and how long a live sample takes to reach the score topic.
 * Each part has its own topic prefix, so neither sees the other's records.
 */
public final class HeatmapBenchmark {

  static final String HEATMAP = "heatmap";
  static final String PASS_THROUGH = "pass-through";

  /**
   * How old a backlog sample heatmap-streams accepts. By default it dead-letters samples more than
   * 30 s from its clock, and a backlog is older than that by the time it is read; samples older
   * than the topic's retention are gone anyway.
   */
  static final Duration BACKLOG_CLOCK_SKEW = Topics.TELEMETRY.retention();

  private static final Duration STARTUP = Duration.ofSeconds(90);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  /**
   * What to run.
   *
   * @param records telemetry records in the backlog
   * @param instances instances the backlog's records come from
   * @param rounds runs of each app over the backlog, taking turns
   * @param liveInstances instances reporting live, 20 samples/s each
   * @param duration how long live telemetry is measured
   * @param warmup live telemetry before measuring
   */
  public record Plan(int records, int instances, int rounds, int liveInstances, Duration duration,
      Duration warmup) {

    /** Beyond this the backlog's oldest samples would come near the telemetry topic's retention. */
    static final Duration MAX_BACKLOG_SPAN = Topics.TELEMETRY.retention().dividedBy(2);

    public Plan {
      requireNonNull(duration, "duration");
      requireNonNull(warmup, "warmup");
      if (records < 1 || instances < 1 || rounds < 1 || liveInstances < 1) {
        throw new IllegalArgumentException("records, instances, rounds and live instances must be >= 1");
      }
      if (duration.toMillis() < 1000 || warmup.isNegative()) {
        throw new IllegalArgumentException("the live duration must be >= 1 s and the warm-up >= 0");
      }
      if (new TelemetrySamples("", instances, 0).backlogSpan(records).compareTo(MAX_BACKLOG_SPAN) > 0) {
        throw new IllegalArgumentException(records + " records of " + instances + " instances, 50 ms apart, span "
            + "more than " + MAX_BACKLOG_SPAN.toMinutes() + " min; use more instances or fewer records");
      }
    }
  }

  private final LocalCluster cluster;
  private final Path stateDir;
  private final PrintStream out;

  /**
   * @param stateDir where the apps keep their stores, one directory per application id
   */
  public HeatmapBenchmark(final LocalCluster cluster, final Path stateDir, final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.stateDir = requireNonNull(stateDir, "stateDir");
    this.out = requireNonNull(out, "out");
  }

  /** Runs both parts and prints the Markdown tables under a caption naming {@code commandLine}. */
  public void run(final Plan plan, final String commandLine) throws Exception {
    requireNonNull(plan, "plan");
    final String runId = Long.toString(System.currentTimeMillis(), 36);
    final ClusterSettings backlog = cluster.settings(provision("bench-heatmap-" + runId + "-"));
    step("Pre-producing " + plan.records() + " telemetry records of " + plan.instances() + " instances");
    new TelemetryBacklog(backlog, out).publish(new TelemetrySamples("gpu-", plan.instances(), 1), plan.records());
    final List<ThroughputRun> runs;
    try (Admin admin = Admin.create(backlog.clientProperties())) {
      admin.createTopics(List.of(PassThroughApp.copyTopic(backlog.catalogue()))).all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      final OffsetProbe probe = new OffsetProbe(admin, backlog.catalogue().name(Topics.TELEMETRY));
      final OffsetProbe deadLetters = new OffsetProbe(admin, backlog.catalogue().name(Topics.TELEMETRY_DLQ));
      runs = new ThroughputBenchmark(probe, deadLetters, backlog.catalogue().prefix(), stateDir, out).run(List.of(
          new Contender(PASS_THROUGH, (id, dir) -> PassThroughApp.start(backlog, id, dir)),
          new Contender(HEATMAP, (id, dir) -> heatmap(backlog, id, dir, Map.of(
              HeatmapConfig.MAX_CLOCK_SKEW_MS, BACKLOG_CLOCK_SKEW.toMillis())))), plan.rounds());
    }
    final ScoreLatency latency = live(plan, cluster.settings(provision("bench-heatmap-" + runId + "-live-")));
    out.print(new HeatmapBenchReport(commandLine, plan).render(runs, latency));
  }

  private ScoreLatency live(final Plan plan, final ClusterSettings live) throws Exception {
    final String applicationId = live.catalogue().prefix() + HEATMAP;
    step("Starting heatmap-streams (application id " + applicationId + ") for live telemetry");
    try (StreamsApp heatmap = heatmap(live, applicationId, stateDir.resolve(applicationId), Map.of())) {
      heatmap.awaitRunning(STARTUP);
      step("Publishing live telemetry of " + plan.liveInstances() + " instances at 20 samples/s for "
          + plan.warmup().toMillis() + " ms of warm-up and " + plan.duration().toMillis() + " ms measured");
      return new LiveLatencyBenchmark(live, out).run(new TelemetrySamples("gpu-", plan.liveInstances(), 2),
          plan.warmup(), plan.duration());
    }
  }

  private TopicCatalogue provision(final String prefix) {
    final TopicCatalogue catalogue = new TopicCatalogue(prefix);
    step("Provisioning topics with prefix " + prefix + ": " + cluster.provision(catalogue).summary());
    return catalogue;
  }

  /** heatmap-streams with its defaults but for {@code overrides}, on a free port. */
  private static StreamsApp heatmap(final ClusterSettings cluster, final String applicationId, final Path stateDir,
      final Map<String, Object> overrides) {
    final Map<String, Object> settings = new HashMap<>(overrides);
    settings.put(HeatmapConfig.APPLICATION_ID, applicationId);
    settings.put(HeatmapConfig.STATE_DIR, stateDir.toString());
    settings.put(HeatmapConfig.HTTP_PORT, 0);
    settings.putAll(StreamsDurability.SINGLE_BROKER.settings(HeatmapConfig.PREFIX));
    return HeatmapApp.start(cluster, new HeatmapConfig(settings), "127.0.0.1");
  }

  private void step(final String message) {
    out.println("==> " + message);
  }
}
