package io.zerolayer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

  private final DurationConverter converter = new DurationConverter();

  @Test
  void shouldReadTheShortFormsWithTheirUnits() {
    assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(converter.convert("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(converter.convert("1H")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void shouldReadIso8601() {
    assertThat(converter.convert("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(converter.convert("pt10s")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void shouldRejectANumberWithoutAUnitSayingHowToWriteIt() {
    assertThatThrownBy(() -> converter.convert("30"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("30s");
  }
}
