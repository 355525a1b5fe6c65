package io.zerolayer.fleet;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

/**
 * A batch's slots, given to the waiting sequences in the order they arrived: first come, first
 * served, as the default schedulers of vLLM and SGLang admit their waiting requests. A sequence
 * that stops waiting (cancelled, or its instance crashed) leaves its place in line at once, as an
 * aborted request leaves an engine's waiting queue.
 */
final class BatchSlots {

  private final int capacity;
  private final Deque<Place> line = new ArrayDeque<>();
  private int used;

  /** A sequence's place in line. */
  static final class Place {
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
  synchronized Place join() {
    final Place place = new Place();
    line.addLast(place);
    return place;
  }

  /**
   * Enters the batch once the place is first in line and a slot is free, waiting up to
   * {@code maxWaitMs} for that.
   *
   * @return whether it entered; if not, the place keeps its turn
   */
  synchronized boolean enter(final Place place, final long maxWaitMs) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMs);
    while (line.peekFirst() != place || used >= capacity) {
      final long leftNanos = deadline - System.nanoTime();
      if (leftNanos <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, leftNanos);
    }
    line.removeFirst();
    used++;
    // The next in line may enter too if slots are left.
    notifyAll();
    return true;
  }

  /** Gives up a place that has not entered. */
  synchronized void leave(final Place place) {
    if (line.remove(place)) {
      notifyAll();
    }
  }

  /** Frees the slot of a sequence that entered. */
  synchronized void release() {
    used--;
    notifyAll();
  }
}
