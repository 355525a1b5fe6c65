package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A console line at most once a second while a phase runs: what is done of the total and the
 * rate since the previous line.
 */
final class Progress {

  private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final PrintStream out;
  private final String phase;
  private final long total;
  private final String unit;
  private final LongSupplier nanoClock;
  private long lastLineNanos;
  private long lastDone;

  Progress(final PrintStream out, final String phase, final long total, final String unit) {
    this(out, phase, total, unit, System::nanoTime);
  }

  Progress(final PrintStream out, final String phase, final long total, final String unit,
      final LongSupplier nanoClock) {
    this.out = requireNonNull(out, "out");
    this.phase = requireNonNull(phase, "phase");
    this.total = total;
    this.unit = requireNonNull(unit, "unit");
    this.nanoClock = requireNonNull(nanoClock, "nanoClock");
    this.lastLineNanos = nanoClock.getAsLong();
  }

  /**
   * Reports that {@code done} of the total are done; prints a line if a second has passed since
   * the last one.
   *
   * @param detail appended to the line unless empty; asked for only when a line is printed
   */
  void update(final long done, final Supplier<String> detail) {
    final long now = nanoClock.getAsLong();
    if (now - lastLineNanos < INTERVAL_NANOS) {
      return;
    }
    out.println(line(done, (done - lastDone) * 1e9 / (now - lastLineNanos), detail.get()));
    lastLineNanos = now;
    lastDone = done;
  }

  String line(final long done, final double perSecond, final String detail) {
    return String.format(Locale.ROOT, "  [%s] %,d / %,d %s, %,.0f/s%s", phase, done, total, unit, perSecond,
        detail.isEmpty() ? "" : ", " + detail);
  }
}
