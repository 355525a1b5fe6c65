package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ScoreRulesTest {

  @Test
  void shouldKeepFullWeightJustBelow70PercentFragmentation() {
    assertThat(ScoreRules.fragmentationFactor(0.699)).isEqualTo(1.0);
  }

  @Test
  void shouldFallLinearlyFromOneAt70PercentTo0Point3At85Percent() {
    assertThat(ScoreRules.fragmentationFactor(0.70)).isCloseTo(1.0, within(1e-9));
    assertThat(ScoreRules.fragmentationFactor(0.775)).isCloseTo(0.65, within(1e-9));
    assertThat(ScoreRules.fragmentationFactor(0.8499)).isCloseTo(0.3, within(1e-3));
  }

  @Test
  void shouldUse0Point1From85To92PercentAndZeroAbove() {
    assertThat(ScoreRules.fragmentationFactor(0.85)).isEqualTo(0.1);
    assertThat(ScoreRules.fragmentationFactor(0.92)).isEqualTo(0.1);
    assertThat(ScoreRules.fragmentationFactor(0.9201)).isZero();
  }

  @Test
  void shouldScaleTgsvBetween15And50Ms() {
    assertThat(ScoreRules.tgsvFactor(14.9)).isEqualTo(1.0);
    assertThat(ScoreRules.tgsvFactor(15.0)).isCloseTo(1.0, within(1e-9));
    assertThat(ScoreRules.tgsvFactor(32.5)).isCloseTo(0.5, within(1e-9));
    assertThat(ScoreRules.tgsvFactor(50.0)).isCloseTo(0.0, within(1e-9));
    assertThat(ScoreRules.tgsvFactor(50.1)).isZero();
  }

  @Test
  void shouldMarkAnInstanceSaturatedAbove98PercentUtilisation() {
    assertThat(ScoreRules.saturated(0.98)).isFalse();
    assertThat(ScoreRules.saturated(0.981)).isTrue();
  }
}
