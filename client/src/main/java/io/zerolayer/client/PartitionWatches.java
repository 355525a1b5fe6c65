package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The partitions outside the client's {@link PartitionShare} that the reading thread reads
 * while a sequence on them is watched. Any thread asks for a partition; the reading thread
 * applies the asks between two polls, so that the consumer is only ever touched by it.
 */
final class PartitionWatches {

  private final PartitionShare share;
  private final Queue<Watch> asks = new ConcurrentLinkedQueue<>();
  /** How many watches each partition outside the share has; the reading thread's alone. */
  private final Map<Integer, Integer> watched = new HashMap<>();

  PartitionWatches(final PartitionShare share) {
    this.share = requireNonNull(share, "share");
  }

  /**
   * Asks for {@code partition} to be read from its end on; returns once the reading thread is
   * there, so that whatever is written to it after the call is read.
   *
   * @return false when the reading thread did not get there within {@code timeout}; the ask is withdrawn
   */
  boolean start(final int partition, final Duration timeout) throws InterruptedException {
    final Watch watch = new Watch(partition, 1, new CountDownLatch(1));
    asks.add(watch);
    if (watch.applied().await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return true;
    }
    end(partition);
    return false;
  }

  /** Lets go of one watch of {@code partition}. */
  void end(final int partition) {
    asks.add(new Watch(partition, -1, new CountDownLatch(1)));
  }

  /**
   * Applies the asks made since the last call, on the reading thread: when the partitions
   * watched changed, {@code reassign} is given all of them before any ask is told it was applied.
   */
  void apply(final Consumer<Set<Integer>> reassign) {
    final List<Watch> applied = new ArrayList<>();
    for (Watch ask = asks.poll(); ask != null; ask = asks.poll()) {
      applied.add(ask);
    }
    if (applied.isEmpty()) {
      return;
    }
    final Set<Integer> before = Set.copyOf(watched.keySet());
    for (final Watch ask : applied) {
      final int count = watched.getOrDefault(ask.partition(), 0) + ask.delta();
      if (share.holds(ask.partition()) || count <= 0) {
        watched.remove(ask.partition());
      } else {
        watched.put(ask.partition(), count);
      }
    }
    if (!before.equals(watched.keySet())) {
      reassign.accept(Set.copyOf(watched.keySet()));
    }
    applied.forEach(ask -> ask.applied().countDown());
  }

  /** A watch of a partition starting (+1) or ending (-1). */
  private record Watch(int partition, int delta, CountDownLatch applied) {
  }
}
