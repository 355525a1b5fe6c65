package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * One app consuming the whole telemetry backlog once.
 *
 * @param app which app
 * @param round 1 for the first run of this app, 2 for the second, ...
 * @param records records it consumed
 * @param startup from starting the app to every stream thread running
 * @param consume from every stream thread running to offsets committed up to the end
 * @param deadLettered records the app sent to the dead-letter topic instead of processing them
 */
record ThroughputRun(String app, int round, long records, Duration startup, Duration consume, long deadLettered) {

  ThroughputRun {
    requireNonNull(app, "app");
    requireNonNull(startup, "startup");
    requireNonNull(consume, "consume");
    if (consume.isZero() || consume.isNegative()) {
      throw new IllegalArgumentException("consume time must be positive, got " + consume);
    }
  }

  double recordsPerSecond() {
    return records * 1e9 / consume.toNanos();
  }
}
