package io.zerolayer.fleet.load;

/** Per-request seeds derived from a workload's seed, so request n is the same in every run. */
final class Seeds {

  private Seeds() {
  }

  /** A well-mixed seed for request {@code index} of a workload seeded with {@code seed}. */
  static long of(final long seed, final long index) {
    long x = seed ^ (index * 0x9E3779B97F4A7C15L);
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }
}
