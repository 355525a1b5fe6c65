package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * The instances that had room at one moment of a run, as the simulated fleet knew it: a request
 * sent to one then would have started at once and streamed unhindered.
 *
 * @param atMs when, epoch milliseconds
 * @param instanceIds the instances with room
 */
record Headroom(long atMs, Set<String> instanceIds) {

  Headroom {
    instanceIds = Set.copyOf(requireNonNull(instanceIds, "instanceIds"));
  }
}
