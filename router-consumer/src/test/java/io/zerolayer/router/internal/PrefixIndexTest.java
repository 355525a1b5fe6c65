package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.avro.KvCacheEventKind;
import io.zerolayer.router.policy.PrefixMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixIndexTest {

  private static final long[] PROMPT = {11, 12, 13, 14};

  private final PrefixIndex index = new PrefixIndex(100);

  @Test
  void shouldCountTheLeadingBlocksEachInstanceReportedStored() {
    index.apply(new KvCacheEvent("gpu-0", KvCacheEventKind.STORED, List.of(11L, 12L, 14L), 1L));
    index.apply(new KvCacheEvent("gpu-1", KvCacheEventKind.STORED, List.of(12L, 13L), 1L));

    final PrefixMatch match = index.match(PROMPT, 256, 60);

    assertThat(match.blocks()).isEqualTo(4);
    assertThat(match.heldBlocks("gpu-0")).isEqualTo(2);
    assertThat(match.cachedTokens("gpu-0")).isEqualTo(30);
    assertThat(match.heldBlocks("gpu-1")).isZero();
    assertThat(match.heldBlocks("gpu-9")).isZero();
  }

  @Test
  void shouldForgetEvictedBlocksAndEverythingOfAnInstanceThatRestarted() {
    index.apply(new KvCacheEvent("gpu-0", KvCacheEventKind.STORED, List.of(11L, 12L, 13L), 1L));
    index.apply(new KvCacheEvent("gpu-0", KvCacheEventKind.EVICTED, List.of(12L), 2L));
    assertThat(index.match(PROMPT, 256, 60).heldBlocks("gpu-0")).isEqualTo(1);

    index.apply(new KvCacheEvent("gpu-0", KvCacheEventKind.CLEARED, List.of(), 3L));
    assertThat(index.size("gpu-0")).isZero();
  }

  @Test
  void shouldTakeAPromptRoutedToAnInstanceAsHeldThereAndIgnoreUnknownKinds() {
    index.routed("gpu-2", PROMPT);
    index.apply(new KvCacheEvent("gpu-2", KvCacheEventKind.UNKNOWN, List.of(11L), 1L));

    assertThat(index.match(PROMPT, 256, 60).heldBlocks("gpu-2")).isEqualTo(4);
  }

  @Test
  void shouldKeepAtMostItsBoundPerInstanceForgettingTheLeastRecentlySeen() {
    final PrefixIndex small = new PrefixIndex(3);
    small.routed("gpu-0", new long[] {1, 2, 3});
    small.routed("gpu-0", new long[] {1});
    small.routed("gpu-0", new long[] {4});

    assertThat(small.size("gpu-0")).isEqualTo(3);
    assertThat(small.match(new long[] {1, 2}, 128, 28).heldBlocks("gpu-0")).isEqualTo(1);
  }
}
