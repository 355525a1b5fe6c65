package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContenderTest {

  @Test
  void shouldReadAPolicyWithCutOverAndOneWithout() {
    assertThat(Contender.parse("p2c")).isEqualTo(new Contender("p2c", true));
    assertThat(Contender.parse("round-robin/no-cutover")).isEqualTo(new Contender("round-robin", false));
  }

  @Test
  void shouldNameItselfAsItWasSpelledAndWithoutTheSlashWhereKafkaNamesItsTopics() {
    final Contender control = Contender.parse("round-robin/no-cutover");

    assertThat(control.label()).isEqualTo("round-robin/no-cutover");
    assertThat(control.namePart()).isEqualTo("round-robin-no-cutover");
    assertThat(Contender.parse("epp").namePart()).isEqualTo("epp");
  }

  @Test
  void shouldRefuseAnUnknownPolicyWithOrWithoutCutOver() {
    assertThatThrownBy(() -> Contender.parse("nearest/no-cutover"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown routing policy 'nearest'");
  }
}
