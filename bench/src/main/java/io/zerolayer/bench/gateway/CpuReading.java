package io.zerolayer.bench.gateway;

import io.zerolayer.bench.JitClock;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The CPU time this JVM and its child processes (the broker and the schema registry it started)
 * had used at one moment, so that two readings give the cores each side kept busy in between.
 *
 * @param ownNanos this JVM's CPU time: the layer's apps, the benchmark's client and stand-in engine
 * @param compiledMillis how long this JVM's JIT compilers had compiled, where the JVM says
 * @param childNanos the CPU time of every process this JVM started, and theirs
 * @param wallNanos {@link System#nanoTime()} when it was read
 */
record CpuReading(long ownNanos, OptionalLong compiledMillis, long childNanos, long wallNanos) {

  /** Reads now; a process whose CPU time the operating system does not report counts as none. */
  static CpuReading now() {
    final long children = ProcessHandle.current().descendants().mapToLong(CpuReading::cpuNanos).sum();
    return new CpuReading(cpuNanos(ProcessHandle.current()), JitClock.compiledMillis(), children, System.nanoTime());
  }

  private static long cpuNanos(final ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
  }

  /** Cores this JVM kept busy since {@code before}, on average. */
  double ownCoresSince(final CpuReading before) {
    return (double) (ownNanos - before.ownNanos) / (wallNanos - before.wallNanos);
  }

  /**
   * This JVM's compile time since {@code before}, as cores; NaN where the JVM does not say. The JVM
   * counts the time its compilers spent on compilations, waits for a core included, so on a full
   * machine this may exceed {@link #ownCoresSince}.
   */
  double compilerCoresSince(final CpuReading before) {
    final OptionalLong compiled = JitClock.since(before.compiledMillis);
    return compiled.isPresent() ? compiled.getAsLong() * 1e6 / (wallNanos - before.wallNanos) : Double.NaN;
  }

  /** Cores the child processes kept busy since {@code before}, on average. */
  double childCoresSince(final CpuReading before) {
    return (double) (childNanos - before.childNanos) / (wallNanos - before.wallNanos);
  }
}
