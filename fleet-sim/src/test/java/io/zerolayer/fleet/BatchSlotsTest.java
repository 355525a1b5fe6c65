package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class BatchSlotsTest {

  @Test
  void shouldLetOnlyTheFirstInLineTakeAFreeSlot() throws Exception {
    final BatchSlots slots = new BatchSlots(1);
    final BatchSlots.Place first = slots.join();
    final BatchSlots.Place second = slots.join();
    final BatchSlots.Place third = slots.join();

    assertThat(slots.enter(first, 0)).isTrue();
    assertThat(slots.enter(second, 0)).as("the batch is full").isFalse();

    slots.release();
    assertThat(slots.enter(third, 0)).as("second is ahead of it").isFalse();
    assertThat(slots.enter(second, 0)).isTrue();
  }

  @Test
  void shouldPassTheTurnOnWhenAWaiterLeaves() throws Exception {
    final BatchSlots slots = new BatchSlots(1);
    final BatchSlots.Place running = slots.join();
    assertThat(slots.enter(running, 0)).isTrue();
    final BatchSlots.Place cancelled = slots.join();
    final BatchSlots.Place next = slots.join();

    slots.leave(cancelled);
    slots.release();

    assertThat(slots.enter(next, 0)).isTrue();
  }

  @Test
  void shouldWakeTheNextInLineAtOnceWhenTheFirstLeavesAndASlotFrees() throws Exception {
    // Given a full batch, a place that will give up, and a waiter behind it that waits long
    final BatchSlots slots = new BatchSlots(1);
    final BatchSlots.Place running = slots.join();
    assertThat(slots.enter(running, 0)).isTrue();
    final BatchSlots.Place givesUp = slots.join();
    final BatchSlots.Place waiter = slots.join();
    final CompletableFuture<Long> enteredAfterMs = CompletableFuture.supplyAsync(() -> {
      final long start = System.nanoTime();
      try {
        return slots.enter(waiter, 10_000) ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) : -1L;
      } catch (final InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });

    // When the place ahead of it leaves and the slot frees
    slots.leave(givesUp);
    slots.release();

    // Then the waiter enters without waiting out its 10 s
    assertThat(enteredAfterMs.get(5, TimeUnit.SECONDS)).isBetween(0L, 5_000L);
  }

  /**
   * Waiters that poll in short waits, as the batcher's do between its checks for a crash or a
   * cancel, still enter in the order they joined: a place keeps its turn across the polls.
   */
  @Test
  void shouldAdmitPollingWaitersInTheOrderTheyJoined() throws Exception {
    final BatchSlots slots = new BatchSlots(1);
    final BatchSlots.Place holder = slots.join();
    assertThat(slots.enter(holder, 0)).isTrue();
    final int waiters = 8;
    final List<Integer> admitted = new CopyOnWriteArrayList<>();
    final CountDownLatch done = new CountDownLatch(waiters);
    final List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < waiters; i++) {
      final BatchSlots.Place place = slots.join();
      final int n = i;
      final Thread thread = new Thread(() -> {
        try {
          while (!slots.enter(place, 1)) {
            Thread.yield();
          }
          admitted.add(n);
          slots.release();
          done.countDown();
        } catch (final InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      threads.add(thread);
    }
    // Started in reverse, so that arrival at the lock does not decide the order; the line does.
    for (int i = waiters - 1; i >= 0; i--) {
      threads.get(i).start();
    }
    slots.release();

    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(admitted).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
  }
}
