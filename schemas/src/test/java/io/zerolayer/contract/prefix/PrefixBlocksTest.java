package io.zerolayer.contract.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrefixBlocksTest {

  private static final String SHARED = "system: you answer questions about the Kafka cluster of the team. ".repeat(4);

  @Test
  void shouldCutOnlyWholeBlocks() {
    assertThat(PrefixBlocks.of("x".repeat(PrefixBlocks.BLOCK_CHARS - 1))).isEmpty();
    assertThat(PrefixBlocks.of("x".repeat(3 * PrefixBlocks.BLOCK_CHARS + 10))).hasSize(3);
  }

  @Test
  void shouldNameSharedLeadingTextWithTheSameHashesAndTheRestDifferently() {
    final long[] first = PrefixBlocks.of(SHARED + "user: how many partitions has the tokens topic, and why that many?");
    final long[] second = PrefixBlocks.of(SHARED + "user: which broker leads the changelog of the token store today?");
    final int shared = SHARED.length() / PrefixBlocks.BLOCK_CHARS;

    for (int i = 0; i < shared; i++) {
      assertThat(first[i]).isEqualTo(second[i]);
    }
    assertThat(first[shared]).isNotEqualTo(second[shared]);
  }

  @Test
  void shouldChainEachBlockToEverythingBeforeIt() {
    final String block = "a".repeat(PrefixBlocks.BLOCK_CHARS);
    final long[] same = PrefixBlocks.of(block + block);

    // The same text as a second block is a different block: it follows another prefix.
    assertThat(same[1]).isNotEqualTo(same[0]);
    assertThat(PrefixBlocks.of("b".repeat(PrefixBlocks.BLOCK_CHARS) + block)[1]).isNotEqualTo(same[1]);
  }

  @Test
  void shouldEstimateTheCachedTokensFromTheShareOfCharactersHeld() {
    assertThat(PrefixBlocks.cachedTokens(0, 640, 140)).isZero();
    assertThat(PrefixBlocks.cachedTokens(5, 640, 140)).isEqualTo(70);
    assertThat(PrefixBlocks.cachedTokens(10, 640, 140)).isEqualTo(140);
    assertThat(PrefixBlocks.cachedTokens(12, 640, 140)).isEqualTo(140);
  }
}
