package io.zerolayer.tokenbuffer.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** token-buffer's own meters: chunks by verdict and the sequences this process is streaming. */
public final class SequenceMeters {

  private final Map<SequenceLedger.Verdict, Counter> chunks = new EnumMap<>(SequenceLedger.Verdict.class);
  private final AtomicLong active = new AtomicLong();
  private final Counter stalls;
  private final Counter fleetSlowSweeps;
  private final Counter lateSweeps;

  public SequenceMeters(final MeterRegistry registry) {
    for (final SequenceLedger.Verdict verdict : SequenceLedger.Verdict.values()) {
      chunks.put(verdict, Counter.builder("zerolayer.tokenbuffer.chunks")
          .description("Token chunks from workers, by what happened to them")
          .tag("verdict", verdict.name().toLowerCase())
          .register(registry));
    }
    stalls = Counter.builder("zerolayer.tokenbuffer.stalls")
        .description("Attempts reported stalled to the routers")
        .register(registry);
    fleetSlowSweeps = Counter.builder("zerolayer.tokenbuffer.fleet.slow.sweeps")
        .description("Stall checks that found streams slowed on many instances at once, holding the rate rule")
        .register(registry);
    lateSweeps = Counter.builder("zerolayer.tokenbuffer.late.sweeps")
        .description("Stall checks made while token-buffer read its chunks late, holding every timing rule")
        .register(registry);
    Gauge.builder("zerolayer.tokenbuffer.active.sequences", active, AtomicLong::get)
        .description("Sequences decided and not yet finished, on this process's tasks")
        .register(registry);
  }

  void chunk(final SequenceLedger.Verdict verdict) {
    chunks.get(verdict).increment();
  }

  void stalled() {
    stalls.increment();
  }

  void fleetSlowed() {
    fleetSlowSweeps.increment();
  }

  void readLate() {
    lateSweeps.increment();
  }

  void started() {
    active.incrementAndGet();
  }

  void finished() {
    active.updateAndGet(n -> Math.max(0, n - 1));
  }
}
