package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TextModelTest {

  @Test
  void shouldGiveTheSameTokenForTheSamePromptSeedAndIndex() {
    assertThat(TextModel.token("Hello", 7, 12)).isEqualTo(TextModel.token("Hello", 7, 12));
  }

  @Test
  void shouldGiveDifferentTextForDifferentSeeds() {
    final String a = text("Hello", 1);
    final String b = text("Hello", 2);

    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void shouldStopBetweenHalfAndAllOfTheTokenLimit() {
    IntStream.range(0, 200).forEach(seed -> assertThat(TextModel.length("p", seed, 64)).isBetween(32, 64));
  }

  private static String text(final String prompt, final long seed) {
    final StringBuilder text = new StringBuilder();
    IntStream.range(0, 20).forEach(i -> text.append(TextModel.token(prompt, seed, i)));
    return text.toString();
  }
}
