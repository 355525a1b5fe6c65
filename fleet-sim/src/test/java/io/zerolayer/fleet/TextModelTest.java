package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TextModelTest {

  @Test
  void shouldContinueAPrefixWithTheTokensAnUninterruptedRunHas() {
    final List<String> whole = tokens(TextModel.start("Hello", 7), 40);

    final List<String> resumed = new ArrayList<>(whole.subList(0, 17));
    resumed.addAll(tokens(TextModel.after("Hello", 7, whole.subList(0, 17)), 23));

    assertThat(resumed).isEqualTo(whole);
  }

  @Test
  void shouldContinueDifferentlyAfterAPrefixThatIsNotTheSequences() {
    final List<String> whole = tokens(TextModel.start("Hello", 7), 40);
    final List<String> spliced = new ArrayList<>(whole.subList(0, 17));
    spliced.set(16, whole.get(16).equals(" the") ? " a" : " the");

    assertThat(tokens(TextModel.after("Hello", 7, spliced), 23)).isNotEqualTo(whole.subList(17, 40));
  }

  @Test
  void shouldGiveDifferentTextForDifferentSeeds() {
    assertThat(tokens(TextModel.start("Hello", 1), 20)).isNotEqualTo(tokens(TextModel.start("Hello", 2), 20));
  }

  @Test
  void shouldStopBetweenHalfAndAllOfTheTokenLimit() {
    IntStream.range(0, 200).forEach(seed -> assertThat(TextModel.length("p", seed, 64, false)).isBetween(32, 64));
  }

  @Test
  void shouldGenerateTheWholeLimitWhenTheRequestIgnoresTheEndOfSequence() {
    IntStream.range(0, 200).forEach(seed -> assertThat(TextModel.length("p", seed, 64, true)).isEqualTo(64));
    assertThat(TextModel.text("Hello", 3, 64, true)).startsWith(TextModel.text("Hello", 3, 64, false));
  }

  @Test
  void shouldWriteTheWholeTextAsTheChainGoes() {
    final int length = TextModel.length("Hello", 3, 64, false);

    assertThat(TextModel.text("Hello", 3, 64, false)).isEqualTo(String.join("", tokens(TextModel.start("Hello", 3), length)));
  }

  private static List<String> tokens(final TextModel.Chain chain, final int count) {
    final List<String> tokens = new ArrayList<>();
    IntStream.range(0, count).forEach(i -> tokens.add(chain.next()));
    return tokens;
  }
}
