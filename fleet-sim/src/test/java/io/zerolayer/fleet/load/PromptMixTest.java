package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PromptMixTest {

  private static final int DRAWS = 10_000;
  private static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
  private static final List<RequestSpec> SPECS = new ArrayList<>();

  @BeforeAll
  static void drawTheWorkload() {
    final PromptMix mix = PromptMix.standard(42);
    for (int i = 0; i < DRAWS; i++) {
      SPECS.add(mix.spec(i));
    }
  }

  @Test
  void shouldDraw70PercentShort25Medium5LongOver10000Requests() {
    final Map<PromptBand, Integer> counts = new EnumMap<>(PromptBand.class);
    SPECS.forEach(spec -> counts.merge(spec.band(), 1, Integer::sum));

    // Tolerances are about 3 standard deviations of a binomial share over 10 000 draws.
    assertThat(counts.get(PromptBand.SHORT) / (double) DRAWS).isCloseTo(0.70, within(0.015));
    assertThat(counts.get(PromptBand.MEDIUM) / (double) DRAWS).isCloseTo(0.25, within(0.015));
    assertThat(counts.get(PromptBand.LONG) / (double) DRAWS).isCloseTo(0.05, within(0.007));
  }

  @Test
  void shouldWritePromptsWhoseCl100kCountLandsInTheirBand() {
    for (final RequestSpec spec : SPECS) {
      final int tokens = CL100K.countTokens(spec.prompt());
      assertThat(tokens).isEqualTo(spec.promptTokens());
      switch (spec.band()) {
        case SHORT -> assertThat(tokens).isLessThan(200);
        case MEDIUM -> assertThat(tokens).isBetween(200, 1000);
        case LONG -> assertThat(tokens).isGreaterThan(1500);
        default -> throw new AssertionError(spec.band());
      }
    }
  }

  @Test
  void shouldDrawOutputLimitsInRangeWithMostAnswersShort() {
    final List<Integer> shortOutputs = SPECS.stream().filter(s -> s.band() == PromptBand.SHORT)
        .map(RequestSpec::maxOutputTokens).sorted().toList();

    assertThat(shortOutputs).allSatisfy(n -> assertThat(n).isBetween(16, 256));
    assertThat(shortOutputs.get(shortOutputs.size() / 2)).as("median").isBetween(48, 96);
    assertThat(shortOutputs.get(shortOutputs.size() - 1)).isGreaterThan(240);
    assertThat(SPECS).allSatisfy(s -> assertThat(s.maxOutputTokens()).isBetween(16, 512));
  }

  @Test
  void shouldGiveTheSameRequestForTheSameSeedAndIndex() {
    final PromptMix again = PromptMix.standard(42);

    assertThat(again.spec(17)).isEqualTo(SPECS.get(17));
    assertThat(PromptMix.standard(43).spec(17)).isNotEqualTo(SPECS.get(17));
  }

  @Test
  void shouldDescribeTheShares() {
    assertThat(PromptMix.standard(1).describe()).contains("70 % short", "25 % medium", "5 % long");
  }

  @Test
  void shouldRefuseAShareWhosePromptLengthsLeaveItsBand() {
    assertThatThrownBy(() -> new PromptMix.Share(PromptBand.SHORT, 1, new TokenRange(150, 300),
        new TokenRange(1, 10))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SHORT");
  }
}
