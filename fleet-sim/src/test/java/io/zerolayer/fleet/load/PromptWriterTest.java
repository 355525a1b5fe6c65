package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PromptWriterTest {

  private static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  private static final PromptWriter WRITER = new PromptWriter();

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 5, 13, 14, 20, 199, 200, 1000, 1501, 3000})
  void shouldWriteTextOfExactlyTheAskedCl100kTokenCount(final int tokens) {
    for (long seed = 0; seed < 5; seed++) {
      assertThat(CL100K.countTokens(WRITER.write(tokens, seed))).as("seed %d", seed).isEqualTo(tokens);
    }
  }

  @Test
  void shouldWriteTheSameTextForTheSameSeedAndOtherTextForAnother() {
    assertThat(WRITER.write(300, 7)).isEqualTo(WRITER.write(300, 7)).isNotEqualTo(WRITER.write(300, 8));
  }

  @Test
  void shouldReadLikeAnInstructionFollowedBySentences() {
    final String text = WRITER.write(120, 3);

    assertThat(text).matches("[A-Z][^.]*\\..*").contains(". ");
  }

  @Test
  void shouldRefuseAnEmptyPrompt() {
    assertThatThrownBy(() -> WRITER.write(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
