package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import java.util.Random;

/**
 * How long a simulated GPU's steps take: prefill grows with the prompt, a decode step with the
 * batch, both slower while the instance is cold; a chunk of tokens waits for retransmits in
 * proportion to the packets its network loses (0-80 ms at 15 % loss).
 */
final class GpuPacing {

  private static final double COLD_PREFILL_PENALTY_MS = 2_000;
  /** A fully cold decode step takes this many times longer than a warm one, on top of it. */
  private static final double COLD_DECODE_SLOWDOWN = 2.0;
  private static final double NETWORK_DELAY_MS_PER_LOST_FRACTION = 80 / 0.15;

  private final GpuProfile profile;
  private final GpuLoad load;
  private final GpuHealth health;
  private final SimClock clock;
  private final Random random;

  GpuPacing(final GpuProfile profile, final GpuLoad load, final GpuHealth health, final SimClock clock,
      final Random random) {
    this.profile = requireNonNull(profile, "profile");
    this.load = requireNonNull(load, "load");
    this.health = requireNonNull(health, "health");
    this.clock = requireNonNull(clock, "clock");
    this.random = requireNonNull(random, "random");
  }

  double prefillMs(final int inputTokens) {
    return profile.prefillBaseMs() + profile.prefillPerInputTokenMs() * inputTokens + cold() * COLD_PREFILL_PENALTY_MS;
  }

  double decodeStepMs() {
    final double warm = profile.decodeBaseMs() + profile.decodePerSequenceMs() * load.running();
    return warm * (1 + COLD_DECODE_SLOWDOWN * cold());
  }

  /** Extra time one chunk takes to leave the instance. */
  double networkDelayMs() {
    final double loss = health.packetLoss();
    return loss == 0.0 ? 0.0 : random.nextDouble() * loss * NETWORK_DELAY_MS_PER_LOST_FRACTION;
  }

  private double cold() {
    return 1.0 - health.warmupLevel(clock.millis());
  }
}
