package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.avro.KvCacheEventKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {

  @Test
  void shouldHitOnlyTheLeadingBlocksItHolds() {
    final PrefixCache cache = new PrefixCache("gpu-0", 100);

    assertThat(cache.prefill(new long[] {1, 2, 3}, 0)).isZero();
    assertThat(cache.prefill(new long[] {1, 2, 4}, 1)).isEqualTo(2);
    // Block 3 is held, but after a block that is not: a prefix cache cannot use it.
    assertThat(cache.prefill(new long[] {9, 3}, 2)).isZero();
  }

  @Test
  void shouldEvictTheLeastRecentlyUsedAndReportEveryChange() {
    final PrefixCache cache = new PrefixCache("gpu-0", 3);
    cache.prefill(new long[] {1, 2}, 0);
    cache.prefill(new long[] {1}, 1);
    cache.prefill(new long[] {5, 6}, 2);

    assertThat(cache.holds(1)).isTrue();
    assertThat(cache.holds(2)).isFalse();
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.drainEvents()).containsExactly(
        new KvCacheEvent("gpu-0", KvCacheEventKind.STORED, List.of(1L, 2L), 0L),
        new KvCacheEvent("gpu-0", KvCacheEventKind.STORED, List.of(5L, 6L), 2L),
        new KvCacheEvent("gpu-0", KvCacheEventKind.EVICTED, List.of(2L), 2L));
    assertThat(cache.drainEvents()).isEmpty();
  }

  @Test
  void shouldNotReportABlockOfAPromptLongerThanTheCacheAsStoredOrEvicted() {
    final PrefixCache cache = new PrefixCache("gpu-0", 2);

    cache.prefill(new long[] {1, 2, 3, 4}, 0);

    assertThat(cache.drainEvents()).containsExactly(
        new KvCacheEvent("gpu-0", KvCacheEventKind.STORED, List.of(3L, 4L), 0L));
  }

  @Test
  void shouldReportARestartAsEverythingCleared() {
    final PrefixCache cache = new PrefixCache("gpu-0", 10);
    cache.prefill(new long[] {1}, 0);
    cache.drainEvents();

    cache.clear(5);

    assertThat(cache.size()).isZero();
    assertThat(cache.drainEvents()).containsExactly(new KvCacheEvent("gpu-0", KvCacheEventKind.CLEARED, List.of(), 5L));
  }

  @Test
  void shouldHoldNothingWithNoCapacityAndRefuseANegativeOne() {
    final PrefixCache none = new PrefixCache("gpu-0", 0);
    none.prefill(new long[] {1}, 0);
    assertThat(none.prefill(new long[] {1}, 1)).isZero();
    assertThat(none.drainEvents()).isEmpty();
    assertThatThrownBy(() -> new PrefixCache("gpu-0", -1)).hasMessageContaining("0 blocks or more");
  }
}
