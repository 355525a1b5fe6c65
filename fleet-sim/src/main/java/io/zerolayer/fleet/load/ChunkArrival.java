package io.zerolayer.fleet.load;

/**
 * One response chunk as the client received it.
 *
 * @param atNanos when it arrived, on the load's clock ({@link LoadScheduler#nanoTime()})
 * @param tokens how many tokens it carried
 * @param instanceId the instance that generated them, when the chunk names it (else null)
 * @param epoch the routing epoch of the attempt that generated them (1 first, +1 per cut-over)
 */
public record ChunkArrival(long atNanos, int tokens, String instanceId, int epoch) {

  public ChunkArrival {
    if (tokens < 0) {
      throw new IllegalArgumentException("A chunk carries 0 or more tokens, got " + tokens);
    }
  }
}
