package io.zerolayer.bench;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.fault.AppliedFault;
import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.fault.ScheduledFault;
import io.zerolayer.fleet.load.ChunkArrival;
import io.zerolayer.fleet.load.PromptBand;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Builds a policy's run for tests. The load starts at wall-clock time 0 and the monotonic clock
 * reads the same in nanoseconds, so every time below is milliseconds from the load's start.
 */
final class RunFixture {

  private static final long MS = 1_000_000L;

  private final List<RequestOutcome> outcomes = new ArrayList<>();
  private final List<Dispatch> dispatches = new ArrayList<>();
  private final List<AppliedFault> faults = new ArrayList<>();
  private final List<Headroom> headroom = new ArrayList<>();
  private long measureFromMs;
  private long loadEndMs = 60_000;

  RunFixture measuringFrom(final long ms) {
    measureFromMs = ms;
    return this;
  }

  RunFixture loadEndingAt(final long ms) {
    loadEndMs = ms;
    return this;
  }

  /** A completed request: three chunks of 4 tokens from {@code instance}, the last at sent + latency. */
  RunFixture completed(final String id, final long sentMs, final long latencyMs, final String instance) {
    return completed(id, sentMs, latencyMs, instance, 4);
  }

  /** A completed request: three chunks of {@code tokensPerChunk} tokens, the last at sent + latency. */
  RunFixture completed(final String id, final long sentMs, final long latencyMs, final String instance,
      final int tokensPerChunk) {
    final List<ChunkArrival> chunks = List.of(
        new ChunkArrival((sentMs + latencyMs / 3) * MS, tokensPerChunk, instance, 1),
        new ChunkArrival((sentMs + 2 * latencyMs / 3) * MS, tokensPerChunk, instance, 1),
        new ChunkArrival((sentMs + latencyMs) * MS, tokensPerChunk, instance, 1));
    return outcome(id, Status.COMPLETED, sentMs, sentMs + latencyMs, chunks);
  }

  RunFixture outcome(final String id, final Status status, final long sentMs, final long finishedMs,
      final List<ChunkArrival> chunks) {
    outcomes.add(new RequestOutcome(id, PromptBand.SHORT, 100, 64, 4, status,
        status == Status.COMPLETED ? RoutingOutcome.DIRECT : null, status == Status.COMPLETED ? null : "why",
        null, sentMs * MS, finishedMs * MS, chunks));
    return this;
  }

  RunFixture dispatch(final String id, final int epoch, final String instance, final long atMs) {
    return dispatch(id, epoch, instance, atMs, epoch == 1 ? "lowest cost" : "gpu-0 stalled (no token within 1200 ms)");
  }

  RunFixture dispatch(final String id, final int epoch, final String instance, final long atMs,
      final String reason) {
    dispatches.add(new Dispatch(id, epoch, instance, epoch == 1 ? RoutingOutcome.DIRECT : RoutingOutcome.CUTOVER,
        atMs, reason));
    return this;
  }

  /** A dispatch with the latency and time to the first token the router predicted. */
  RunFixture predicted(final String id, final int epoch, final String instance, final double latencyMs,
      final double ttftMs) {
    dispatches.add(new Dispatch(id, epoch, instance, epoch == 1 ? RoutingOutcome.DIRECT : RoutingOutcome.CUTOVER,
        0, "lowest cost", latencyMs, ttftMs));
    return this;
  }

  RunFixture fault(final FaultKind kind, final String target, final long atMs, final String... instanceIds) {
    faults.add(new AppliedFault(new ScheduledFault(kind, Duration.ofMillis(atMs), target), Instant.ofEpochMilli(atMs),
        Duration.ofMillis(atMs), List.of(instanceIds)));
    return this;
  }

  /** From {@code atMs} on (until the next call), the instances with room; call in time order. */
  RunFixture room(final long atMs, final String... instanceIds) {
    headroom.add(new Headroom(atMs, Set.of(instanceIds)));
    return this;
  }

  PolicyRun run(final String policy) {
    return new PolicyRun(policy, outcomes, dispatches, faults, headroom, Set.of(), new RunClock(0, 0), 0, measureFromMs,
        loadEndMs);
  }
}
