package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class RehearsalsTest {

  @Test
  void shouldMeasureOnceTheJitCompiledForNoMoreThan15PercentOfARehearsal() {
    assertThat(Rehearsals.after(1, OptionalDouble.of(0.15))).isEqualTo(Rehearsals.Next.MEASURE);
    assertThat(Rehearsals.after(3, OptionalDouble.of(0.12))).isEqualTo(Rehearsals.Next.MEASURE);
  }

  @Test
  void shouldRehearseAgainWhileTheJitIsBusyUpToFourTimes() {
    assertThat(Rehearsals.after(1, OptionalDouble.of(0.92))).isEqualTo(Rehearsals.Next.REHEARSE_AGAIN);
    assertThat(Rehearsals.after(3, OptionalDouble.of(0.151))).isEqualTo(Rehearsals.Next.REHEARSE_AGAIN);
    assertThat(Rehearsals.after(4, OptionalDouble.of(0.37))).isEqualTo(Rehearsals.Next.MEASURE_ANYWAY);
  }

  @Test
  void shouldRehearseOnceOnAJvmThatDoesNotSayHowLongItsJitCompiles() {
    assertThat(Rehearsals.after(1, OptionalDouble.empty())).isEqualTo(Rehearsals.Next.MEASURE);
  }
}
