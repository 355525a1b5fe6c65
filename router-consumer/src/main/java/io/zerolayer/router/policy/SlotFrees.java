package io.zerolayer.router.policy;

/**
 * When each slot of a batch frees, soonest first: a min-heap of primitive times, as a queue-wait
 * estimate walks it for every busy candidate of every decision (boxed times cost a decision over
 * 1,000 instances several times its work).
 */
final class SlotFrees {

  private final double[] heap;
  private int size;

  /** @param slots how many times it will hold */
  SlotFrees(final int slots) {
    heap = new double[Math.max(1, slots)];
  }

  void add(final double freeMs) {
    int at = size++;
    while (at > 0 && heap[(at - 1) / 2] > freeMs) {
      heap[at] = heap[(at - 1) / 2];
      at = (at - 1) / 2;
    }
    heap[at] = freeMs;
  }

  int size() {
    return size;
  }

  /** The soonest time a slot frees. */
  double soonest() {
    return heap[0];
  }

  /** The soonest slot is taken until {@code freeMs}. */
  void takeSoonestUntil(final double freeMs) {
    int at = 0;
    while (true) {
      final int left = 2 * at + 1;
      if (left >= size) {
        break;
      }
      final int child = left + 1 < size && heap[left + 1] < heap[left] ? left + 1 : left;
      if (heap[child] >= freeMs) {
        break;
      }
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = freeMs;
  }
}
