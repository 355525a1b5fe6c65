package io.zerolayer.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one simulated GPU is busy with: sequences waiting for a batch slot, sequences in the
 * batch and the output tokens each may still generate, the tokens whose KV entries they hold,
 * and KV allocations that failed since the
 * previous telemetry sample.
 */
final class GpuLoad {

  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong kvTokens = new AtomicLong();
  private final AtomicInteger allocationErrors = new AtomicInteger();
  private final Set<Allocation> inBatch = ConcurrentHashMap.newKeySet();

  void enqueue() {
    queued.incrementAndGet();
  }

  void dequeue() {
    queued.decrementAndGet();
  }

  /**
   * A sequence joins the batch with the KV entries of its prompt, allowed {@code tokensToLimit}
   * more output tokens; close it when it leaves.
   */
  Allocation admit(final int inputTokens, final int tokensToLimit) {
    final Allocation allocation = new Allocation(inputTokens, tokensToLimit);
    inBatch.add(allocation);
    return allocation;
  }

  void allocationFailed() {
    allocationErrors.incrementAndGet();
  }

  /** Allocation errors since the previous call. */
  int takeAllocationErrors() {
    return allocationErrors.getAndSet(0);
  }

  int queued() {
    return queued.get();
  }

  int running() {
    return inBatch.size();
  }

  long kvTokens() {
    return kvTokens.get();
  }

  /** For each sequence in the batch, the output tokens its limit still allows. */
  List<Integer> tokensToLimit() {
    final List<Integer> left = new ArrayList<>(inBatch.size());
    for (final Allocation allocation : inBatch) {
      left.add(allocation.tokensToLimit);
    }
    return left;
  }

  /** The KV entries of one sequence in the batch. */
  final class Allocation implements AutoCloseable {

    private long held;
    private volatile int tokensToLimit;

    private Allocation(final int inputTokens, final int tokensToLimit) {
      this.tokensToLimit = tokensToLimit;
      held = inputTokens;
      kvTokens.addAndGet(inputTokens);
    }

    /** The sequence produced one more token, with its KV entry. */
    void generated() {
      held++;
      kvTokens.incrementAndGet();
      tokensToLimit = Math.max(0, tokensToLimit - 1);
    }

    @Override
    public void close() {
      inBatch.remove(this);
      kvTokens.addAndGet(-held);
      held = 0;
    }
  }
}
