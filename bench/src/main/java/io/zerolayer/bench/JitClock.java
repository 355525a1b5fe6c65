package io.zerolayer.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.OptionalLong;

/** How long this JVM's JIT compilers have compiled so far, where the JVM measures it. */
public final class JitClock {

  private JitClock() {
  }

  /** Milliseconds spent compiling since the JVM started; empty when the JVM does not measure it. */
  public static OptionalLong compiledMillis() {
    final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    return compiler != null && compiler.isCompilationTimeMonitoringSupported()
        ? OptionalLong.of(compiler.getTotalCompilationTime()) : OptionalLong.empty();
  }

  /** Milliseconds compiled since {@code before} (a reading of {@link #compiledMillis()}), or empty. */
  public static OptionalLong since(final OptionalLong before) {
    final OptionalLong now = compiledMillis();
    return before.isPresent() && now.isPresent() ? OptionalLong.of(now.getAsLong() - before.getAsLong())
        : OptionalLong.empty();
  }
}
