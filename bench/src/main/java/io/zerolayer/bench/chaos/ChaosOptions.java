package io.zerolayer.bench.chaos;

import java.time.Duration;

/**
 * How a chaos run goes.
 *
 * @param faults how many faults to make, one after the other
 * @param pace the pause between two sequences the load sends
 * @param registryPause how long the schema registry stays stopped in a registry fault
 * @param seed seeds the choice of partitions, replicas and pauses
 */
public record ChaosOptions(int faults, Duration pace, Duration registryPause, long seed) {

  public ChaosOptions {
    if (faults < 1) {
      throw new IllegalArgumentException("Make at least one fault; got " + faults);
    }
    if (pace.isNegative() || pace.isZero()) {
      throw new IllegalArgumentException("The load's pace must be positive; got " + pace);
    }
  }
}
