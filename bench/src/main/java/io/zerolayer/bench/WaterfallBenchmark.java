package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The latency waterfall on a running pipeline: requests at a steady rate, every hop of each one
 * timed, and beside them, at the same moments, one plain Kafka hop (the floor). One phase per
 * rate, then a phase of long answers; the token store's changelog is weighed around each.
 */
public final class WaterfallBenchmark {

  /**
   * What to run.
   *
   * @param rates requests per second of each phase, in order
   * @param measured how long each phase is measured, after its warm-up
   * @param warmup how long each phase runs at least before it is measured
   * @param maxWarmup how long each phase may run before it is measured while the JIT is at work
   *     ({@link JitQuiet})
   * @param outputTokens the most tokens a phase's request asks for (it stops between half and all)
   * @param longAnswers how many long answers the last phase asks for, one a second
   * @param longOutputTokens the most tokens a long answer asks for
   * @param tenant the tenant the requests name, and its API key
   */
  public record Plan(List<Integer> rates, Duration measured, Duration warmup, Duration maxWarmup, int outputTokens,
      int longAnswers, int longOutputTokens, String tenant, String apiKey) {
    public Plan {
      JitQuiet.check(warmup, maxWarmup);
    }
  }

  /**
   * What one phase measured.
   *
   * @param label what the phase was
   * @param longAnswers whether it was the phase of long answers, whose two ends are compared
   * @param hops every measured request's hops
   * @param unanswered measured requests with a hop not seen (no first chunk read, or no completion)
   * @param answers the phase's requests, warm-up included, and how many had no complete response
   *     within the answer timeout
   * @param floorMs the floor's hops sent while the phase was measured
   * @param changelogBytesPerToken bytes the token store's changelog grew by per generated token
   * @param meanTokens mean tokens of a complete answer
   * @param router the router's transactions while the phase was measured
   */
  public record Phase(String label, boolean longAnswers, List<HopTimes> hops, int unanswered, Answers answers,
      List<Long> floorMs, double changelogBytesPerToken, double meanTokens, RouterTransactions.Totals router) {
  }

  /**
   * @param requests the phase's requests, warm-up included
   * @param incomplete those with no complete response within the answer timeout
   * @param tokens the tokens of the complete ones
   */
  public record Answers(int requests, int incomplete, long tokens) {

    /** Mean tokens of a complete answer; 0 without one. */
    double meanTokens() {
      return requests == incomplete ? 0 : tokens / (double) (requests - incomplete);
    }
  }

  /** How long the answers of a phase are waited for, once its requests are sent. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(120);


  private final ClusterSettings cluster;
  private final ChangelogBytes changelog;
  private final RouterTransactions router;
  private final PrintStream out;

  /**
   * @param changelog the token store's changelog, weighed around each phase
   * @param routerMetrics the router's metrics endpoint, read around each phase's measured part
   */
  public WaterfallBenchmark(final ClusterSettings cluster, final ChangelogBytes changelog, final URI routerMetrics,
      final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.changelog = requireNonNull(changelog, "changelog");
    this.router = new RouterTransactions(routerMetrics);
    this.out = requireNonNull(out, "out");
  }

  /** Runs every phase of the plan, in order. */
  public List<Phase> run(final Plan plan) throws Exception {
    final List<Phase> phases = new ArrayList<>();
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        WaterfallProbe probe = new WaterfallProbe(cluster, serdes);
        FloorProbe floor = new FloorProbe(cluster)) {
      for (final int rate : plan.rates()) {
        phases.add(phase(String.format(Locale.ROOT, "%d requests/s", rate), false, rate,
            new JitQuiet(plan.warmup(), plan.maxWarmup(), out), plan.measured(), plan.outputTokens(), plan, probe,
            floor));
      }
      if (plan.longAnswers() > 0) {
        phases.add(phase(plan.longAnswers() + " long answers", true, 1, new JitQuiet(Duration.ZERO, Duration.ZERO, out),
            Duration.ofSeconds(plan.longAnswers()), plan.longOutputTokens(), plan, probe, floor));
      }
    }
    return phases;
  }

  /** @param quiet says when the warm-up ends; it starts with the phase's first request */
  private Phase phase(final String label, final boolean longAnswers, final int rate, final JitQuiet quiet,
      final Duration measured, final int outputTokens, final Plan plan, final WaterfallProbe probe,
      final FloorProbe floor) throws Exception {
    final int measuredCount = (int) (rate * measured.toMillis() / 1000);
    out.printf(Locale.ROOT, "==> %s: a warm-up, then %d measured requests, answers of up to %d tokens%n", label,
        measuredCount, outputTokens);
    final long bytesBefore = changelog.now();
    final List<String> measuredIds = new ArrayList<>();
    final List<CompletableFuture<Response>> all = new ArrayList<>();
    final long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
    final long start = System.nanoTime();
    long measuredFromMs = Long.MAX_VALUE;
    RouterTransactions.Totals routerBefore = router.now();
    Progress progress = null;
    int warmupCount = -1;
    for (int i = 0; warmupCount < 0 || i < warmupCount + measuredCount; i++) {
      TimeUnit.NANOSECONDS.sleep(Math.max(0, start + i * intervalNanos - System.nanoTime()));
      final String id = "waterfall-" + Long.toString(System.nanoTime(), 36) + "-" + i;
      if (warmupCount < 0 && quiet.warmEnough()) {
        warmupCount = i;
        out.printf(Locale.ROOT, "    warmed up with %d requests in %d s%n", i, quiet.warmed().toSeconds());
        measuredFromMs = System.currentTimeMillis();
        routerBefore = router.now();
        progress = new Progress(out, label, measuredCount, "measured requests sent");
      }
      final CompletableFuture<Response> response = probe.submit(request(id, outputTokens, i, plan));
      floor.send(id);
      all.add(response);
      if (progress != null) {
        measuredIds.add(id);
        progress.update(i + 1 - warmupCount, () -> all.stream().filter(CompletableFuture::isDone).count()
            + " answered");
      }
    }
    final long measuredToMs = System.currentTimeMillis();
    final RouterTransactions.Totals routerWhileMeasured = router.now().since(routerBefore);
    final Answers answers = awaitAnswers(all);
    floor.awaitAll(Duration.ofSeconds(10));
    final double bytesPerToken = answers.tokens() == 0 ? 0
        : (changelog.now() - bytesBefore) / (double) answers.tokens();
    final List<HopTimes> hops = new ArrayList<>();
    measuredIds.forEach(id -> probe.hops(id).ifPresent(hops::add));
    return new Phase(label, longAnswers, hops, measuredIds.size() - hops.size(), answers,
        floor.hopsSentBetween(measuredFromMs, measuredToMs + 1), bytesPerToken, answers.meanTokens(),
        routerWhileMeasured);
  }

  /** Waits for every answer, until the answer timeout; counts the complete ones' tokens. */
  private Answers awaitAnswers(final List<CompletableFuture<Response>> all) throws InterruptedException {
    final long deadline = System.nanoTime() + ANSWER_TIMEOUT.toNanos();
    long tokens = 0;
    final Map<String, Integer> failures = new TreeMap<>();
    for (final CompletableFuture<Response> response : all) {
      try {
        tokens += response.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).tokens().size();
      } catch (final ExecutionException e) {
        failures.merge("failed: " + String.valueOf(e.getCause()).replaceAll("waterfall-[0-9a-z-]+", "<id>"), 1,
            Integer::sum);
      } catch (final TimeoutException e) {
        failures.merge("still waiting", 1, Integer::sum);
      }
    }
    final int failed = failures.values().stream().mapToInt(Integer::intValue).sum();
    if (failed > 0) {
      out.printf("  %d of %d requests got no complete answer within %d s:%n", failed, all.size(),
          ANSWER_TIMEOUT.toSeconds());
      failures.forEach((why, count) -> out.printf("    %,d %s%n", count, why));
    }
    return new Answers(all.size(), failed, tokens);
  }

  private static InferenceRequest request(final String id, final int outputTokens, final int i, final Plan plan) {
    return InferenceRequest.newBuilder().setSequenceId(id).setTenantId(plan.tenant()).setApiKey(plan.apiKey())
        .setPrompt("Waterfall request " + i + ": explain how a routing layer keeps its own cost low.")
        .setMaxOutputTokens(outputTokens).setSeed(i).setSubmittedAtMs(System.currentTimeMillis()).build();
  }
}
