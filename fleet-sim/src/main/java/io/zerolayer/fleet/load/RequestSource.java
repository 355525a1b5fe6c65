package io.zerolayer.fleet.load;

/**
 * The requests of a workload, by their position in it. The same source and index always give
 * the same request, whichever user or thread asks, so every routing policy can be run on the
 * same workload.
 */
public interface RequestSource {

  /** The request at {@code index} (0-based). */
  RequestSpec spec(long index);

  /** One line saying what the workload is (and where its data comes from), printed when a load starts. */
  String describe();
}
