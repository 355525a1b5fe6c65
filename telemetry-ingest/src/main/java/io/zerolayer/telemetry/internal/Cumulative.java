package io.zerolayer.telemetry.internal;

/**
 * Counters that only grow while the server runs.
 *
 * @param <T> the counters' own type
 */
public interface Cumulative<T extends Cumulative<T>> {

  /**
   * What was counted since {@code earlier}. When a counter went down the server restarted in
   * between, and everything counted now is new, as Prometheus' {@code rate()} treats a reset.
   */
  T since(T earlier);
}
