package io.zerolayer.fleet;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one simulated GPU is busy with: sequences waiting for a batch slot, sequences in the
 * batch, the tokens whose KV entries they hold, and KV allocations that failed since the
 * previous telemetry sample.
 */
final class GpuLoad {

  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicLong kvTokens = new AtomicLong();
  private final AtomicInteger allocationErrors = new AtomicInteger();

  void enqueue() {
    queued.incrementAndGet();
  }

  void dequeue() {
    queued.decrementAndGet();
  }

  /** A sequence joins the batch with the KV entries of its prompt; close it when it leaves. */
  Allocation admit(final int inputTokens) {
    running.incrementAndGet();
    return new Allocation(inputTokens);
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
    return running.get();
  }

  long kvTokens() {
    return kvTokens.get();
  }

  /** The KV entries of one sequence in the batch. */
  final class Allocation implements AutoCloseable {

    private long held;

    private Allocation(final int inputTokens) {
      grow(inputTokens);
    }

    /** The sequence produced {@code tokens} more tokens, each with its KV entry. */
    void grow(final int tokens) {
      held += tokens;
      kvTokens.addAndGet(tokens);
    }

    @Override
    public void close() {
      kvTokens.addAndGet(-held);
      held = 0;
      running.decrementAndGet();
    }
  }
}
