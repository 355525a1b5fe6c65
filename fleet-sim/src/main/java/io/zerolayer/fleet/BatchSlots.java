package io.zerolayer.fleet;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A batch's slots, given to the waiting sequences in the order they arrived: first come, first
 * served, as the default schedulers of vLLM and SGLang admit their waiting requests. A sequence
 * that stops waiting (cancelled, or its instance crashed) leaves its place in line, as an
 * aborted request leaves an engine's waiting queue.
 *
 * <p>Only the first in line is woken when a slot frees or the line moves. Waking every waiter at
 * every release, with hundreds queued at 100 requests/s, took some 15 % of the embedded stack's
 * CPU samples.
 */
final class BatchSlots {

  private final int capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final Deque<Place> line = new ArrayDeque<>();
  private int used;

  /** A sequence's place in line, woken when its turn may have come. */
  final class Place {
    private final Condition turn = lock.newCondition();

    private Place() {
    }
  }

  BatchSlots(final int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("A batch needs at least one slot, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** Takes a place at the end of the line. */
  Place join() {
    lock.lock();
    try {
      final Place place = new Place();
      line.addLast(place);
      return place;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Enters the batch once the place is first in line and a slot is free, waiting up to
   * {@code maxWaitMs} for that.
   *
   * @return whether it entered; if not, the place keeps its turn
   */
  boolean enter(final Place place, final long maxWaitMs) throws InterruptedException {
    lock.lock();
    try {
      long leftNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMs);
      while (line.peekFirst() != place || used >= capacity) {
        if (leftNanos <= 0) {
          return false;
        }
        leftNanos = place.turn.awaitNanos(leftNanos);
      }
      line.removeFirst();
      used++;
      wakeFirst();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Gives up a place that has not entered. */
  void leave(final Place place) {
    lock.lock();
    try {
      final boolean wasFirst = line.peekFirst() == place;
      if (line.remove(place) && wasFirst) {
        wakeFirst();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Frees the slot of a sequence that entered. */
  void release() {
    lock.lock();
    try {
      used--;
      wakeFirst();
    } finally {
      lock.unlock();
    }
  }

  /** Wakes the first in line if a slot is free for it. */
  private void wakeFirst() {
    final Place first = line.peekFirst();
    if (first != null && used < capacity) {
      first.turn.signal();
    }
  }
}
