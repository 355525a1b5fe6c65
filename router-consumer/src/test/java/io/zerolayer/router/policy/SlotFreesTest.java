package io.zerolayer.router.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlotFreesTest {

  @Test
  void shouldHandOutTheSoonestSlotAsAPriorityQueueWould() {
    final Random random = new Random(3);
    for (int round = 0; round < 200; round++) {
      final int slots = 1 + random.nextInt(40);
      final SlotFrees frees = new SlotFrees(slots);
      final PriorityQueue<Double> expected = new PriorityQueue<>();
      for (int i = 0; i < slots; i++) {
        final double free = random.nextInt(5) == 0 ? 0.0 : 1_000 * random.nextDouble();
        frees.add(free);
        expected.add(free);
      }
      for (int taken = 0; taken < 3 * slots; taken++) {
        assertThat(frees.soonest()).isEqualTo(expected.peek());
        final double until = frees.soonest() + 500 * random.nextDouble();
        frees.takeSoonestUntil(until);
        expected.poll();
        expected.add(until);
      }
      assertThat(frees.size()).isEqualTo(slots);
      assertThat(frees.soonest()).isEqualTo(expected.peek());
    }
  }
}
