package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Turns successive readings of cumulative counters into what was counted between two scrapes.
 * Not thread-safe: one target is scraped by one task at a time.
 *
 * @param <T> the counters
 */
final class CounterWindow<T extends Cumulative<T>> {

  private T previous;

  /**
   * The counts since the previous reading; on the first reading, everything since the server
   * started. A scrape that lacks the counters keeps the previous reading as the baseline.
   */
  Optional<T> advance(final Optional<T> current) {
    requireNonNull(current, "current");
    if (current.isEmpty()) {
      return Optional.empty();
    }
    final T window = previous == null ? current.get() : current.get().since(previous);
    previous = current.get();
    return Optional.of(window);
  }
}
