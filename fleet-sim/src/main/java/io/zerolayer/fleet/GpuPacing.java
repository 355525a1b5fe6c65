package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import java.util.Random;

/**
 * How long a simulated GPU's steps take: prefill grows with the prompt, a decode step with the
 * batch. A chunk of tokens leaves in one TCP segment; on a lossy network each loss of it costs a
 * retransmission timeout, 200 ms (Linux's minimum) doubled for every further loss of the same
 * segment, and the sequence's later tokens wait behind it.
 */
final class GpuPacing {

  private static final double MIN_RETRANSMISSION_TIMEOUT_MS = 200;
  /** A segment lost this often in a row gives up the connection's wait; bounds the delay. */
  private static final int MAX_RETRANSMISSIONS = 6;

  private final GpuProfile profile;
  private final GpuLoad load;
  private final GpuHealth health;
  private final Random random;

  GpuPacing(final GpuProfile profile, final GpuLoad load, final GpuHealth health, final Random random) {
    this.profile = requireNonNull(profile, "profile");
    this.load = requireNonNull(load, "load");
    this.health = requireNonNull(health, "health");
    this.random = requireNonNull(random, "random");
  }

  double prefillMs(final int inputTokens) {
    return profile.prefillBaseMs() + profile.prefillPerInputTokenMs() * inputTokens;
  }

  double decodeStepMs() {
    return profile.decodeBaseMs() + profile.decodePerSequenceMs() * load.running();
  }

  /** Extra time one chunk takes to leave the instance: the retransmission timeouts of its losses. */
  double networkDelayMs() {
    final double loss = health.packetLoss();
    double delay = 0.0;
    double timeout = MIN_RETRANSMISSION_TIMEOUT_MS;
    for (int attempt = 0; attempt < MAX_RETRANSMISSIONS && random.nextDouble() < loss; attempt++) {
      delay += timeout;
      timeout *= 2;
    }
    return delay;
  }
}
