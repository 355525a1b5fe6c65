package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A console line a second while a policy's load runs: the policy, the phase (warm-up,
 * measuring, draining), requests done, errors, throttled, and the P99 latency of the requests
 * completed in the last 5 s.
 */
final class LoadProgress implements AutoCloseable {

  static final Duration RECENT = Duration.ofSeconds(5);

  private final PrintStream out;
  private final String policy;
  private final Duration warmup;
  private final Duration length;
  private final Workload.Running load;
  private final long startNanos;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread thread = new Thread(r, "bench-progress");
    thread.setDaemon(true);
    return thread;
  });

  LoadProgress(final PrintStream out, final String policy, final Duration warmup, final Duration length,
      final Workload.Running load, final long startNanos) {
    this.out = requireNonNull(out, "out");
    this.policy = requireNonNull(policy, "policy");
    this.warmup = requireNonNull(warmup, "warmup");
    this.length = requireNonNull(length, "length");
    this.load = requireNonNull(load, "load");
    this.startNanos = startNanos;
  }

  LoadProgress start() {
    timer.scheduleAtFixedRate(() -> {
      final long now = System.nanoTime();
      out.println(line(Duration.ofNanos(now - startNanos), load.concurrency().getAsInt(),
          load.outcomes().get(), now));
    }, 1, 1, TimeUnit.SECONDS);
    return this;
  }

  String line(final Duration elapsed, final int concurrency, final List<RequestOutcome> outcomes,
      final long nowNanos) {
    final String phase = elapsed.compareTo(warmup) < 0 ? "warm-up" : elapsed.compareTo(length) < 0 ? "measuring"
        : "draining";
    final long errors = outcomes.stream().filter(RequestOutcome::isError).count();
    final long throttled = outcomes.stream().filter(RequestOutcome::isThrottled).count();
    final List<Long> recent = outcomes.stream()
        .filter(o -> o.status() == Status.COMPLETED && nowNanos - o.finishedNanos() <= RECENT.toNanos())
        .map(o -> o.latency().toMillis()).toList();
    return Figure.format("  [%s] %-9s %4d s, concurrency %d: %,d done, %,d errors, %,d throttled, p99 last %d s %s",
        policy, phase, elapsed.toSeconds(), concurrency, outcomes.size(), errors, throttled, RECENT.toSeconds(),
        recent.isEmpty() ? "-" : Figure.format("%,d ms", new Percentiles(recent).at(99)));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
