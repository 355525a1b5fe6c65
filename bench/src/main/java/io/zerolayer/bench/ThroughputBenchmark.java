package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.runtime.StreamsApp;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;

/**
 * Times apps consuming the same backlog, each run with a fresh application id so it reads from
 * the start, and the apps taking turns so that a slow spell of the machine hits both. An app has
 * consumed the backlog when its group's committed offsets reach the topic's end offsets.
 */
final class ThroughputBenchmark {

  /**
   * An app under test.
   *
   * @param name how the table calls it
   * @param start starts it with an application id and a state directory
   */
  record Contender(String name, BiFunction<String, Path, StreamsApp> start) {
  }

  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration STARTUP = Duration.ofSeconds(90);
  private static final Duration NO_PROGRESS = Duration.ofSeconds(60);

  private final OffsetProbe probe;
  private final OffsetProbe deadLetters;
  private final String applicationIdPrefix;
  private final Path stateDir;
  private final PrintStream out;

  /**
   * @param probe looks up the groups' progress through the backlog topic
   * @param deadLetters counts the records on the apps' dead-letter topic
   * @param applicationIdPrefix prepended to every application id
   * @param stateDir each run keeps its stores in a directory of its own under this one
   */
  ThroughputBenchmark(final OffsetProbe probe, final OffsetProbe deadLetters, final String applicationIdPrefix,
      final Path stateDir, final PrintStream out) {
    this.probe = requireNonNull(probe, "probe");
    this.deadLetters = requireNonNull(deadLetters, "deadLetters");
    this.applicationIdPrefix = requireNonNull(applicationIdPrefix, "applicationIdPrefix");
    this.stateDir = requireNonNull(stateDir, "stateDir");
    this.out = requireNonNull(out, "out");
  }

  /** Runs every contender once per round, in the given order, and returns the runs in order. */
  List<ThroughputRun> run(final List<Contender> contenders, final int rounds) throws Exception {
    final List<ThroughputRun> runs = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      for (final Contender contender : contenders) {
        final ThroughputRun run = runOnce(contender, round);
        out.printf(Locale.ROOT, "  %s run %d: %,d records in %.2f s after a %.2f s start, %,.0f records/s, "
            + "%,d dead-lettered%n", run.app(), run.round(), run.records(), seconds(run.consume()),
            seconds(run.startup()), run.recordsPerSecond(), run.deadLettered());
        runs.add(run);
      }
    }
    return runs;
  }

  private ThroughputRun runOnce(final Contender contender, final int round) throws Exception {
    final String applicationId = applicationIdPrefix + contender.name() + "-" + round;
    out.printf("==> %s run %d of the backlog (application id %s)%n", contender.name(), round, applicationId);
    final long deadLetteredBefore = deadLetters.recordsSinceStart();
    final long startedAt = System.nanoTime();
    try (StreamsApp app = contender.start().apply(applicationId, stateDir.resolve(applicationId))) {
      app.awaitRunning(STARTUP);
      final long runningAt = System.nanoTime();
      final long records = awaitCaughtUp(applicationId, contender.name() + " run " + round);
      final long doneAt = System.nanoTime();
      return new ThroughputRun(contender.name(), round, records, Duration.ofNanos(runningAt - startedAt),
          Duration.ofNanos(doneAt - runningAt), deadLetters.recordsSinceStart() - deadLetteredBefore);
    }
  }

  /** Polls the group's committed offsets until they reach the end; returns the records consumed. */
  private long awaitCaughtUp(final String groupId, final String phase)
      throws InterruptedException, ExecutionException, TimeoutException {
    GroupPosition position = probe.position(groupId);
    final Progress progress = new Progress(out, phase, position.total(), "records");
    long lastConsumed = -1;
    long lastAdvanceNanos = System.nanoTime();
    while (!position.caughtUp()) {
      if (position.consumed() > lastConsumed) {
        lastConsumed = position.consumed();
        lastAdvanceNanos = System.nanoTime();
      } else if (System.nanoTime() - lastAdvanceNanos > NO_PROGRESS.toNanos()) {
        throw new IllegalStateException(groupId + " committed nothing new for " + NO_PROGRESS.toSeconds()
            + " s, stuck at " + lastConsumed + " of " + position.total() + " records; look for errors above");
      }
      final GroupPosition current = position;
      progress.update(current.consumed(), () -> "lag " + current.lag());
      TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
      position = probe.position(groupId);
    }
    return position.total();
  }

  private static double seconds(final Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
