package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JitQuietTest {

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  @Test
  void shouldEndAtOnceWhenThereIsNoWarmUp() {
    assertThat(new JitQuiet(Duration.ZERO, Duration.ZERO, out).warmEnough()).isTrue();
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void shouldNotEndBeforeTheShortestWarmUp() {
    final JitQuiet quiet = new JitQuiet(Duration.ofSeconds(30), Duration.ofSeconds(180), out);

    assertThat(quiet.warmEnough()).isFalse();
    assertThat(quiet.warmed()).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void shouldRefuseALongestWarmUpShorterThanTheShortestNamingBothOptions() {
    assertThatThrownBy(() -> new JitQuiet(Duration.ofSeconds(30), Duration.ofSeconds(10), out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--max-warmup").hasMessageContaining("--warmup");
  }
}
