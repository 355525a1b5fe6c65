package io.zerolayer.fleet.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultScheduleTest {

  @Test
  void shouldReadEveryEntryOfASchedule() {
    final FaultSchedule schedule = FaultSchedule.parse("oom@20s:gpu-3, zone-loss@40s:zone-b, recover@60s:gpu-3,"
        + " cold@70s:gpu-5, stall@80s:gpu-1, crash@90s:gpu-2");

    assertThat(schedule.entries()).containsExactly(
        new ScheduledFault(FaultKind.OOM, Duration.ofSeconds(20), "gpu-3"),
        new ScheduledFault(FaultKind.ZONE_LOSS, Duration.ofSeconds(40), "zone-b"),
        new ScheduledFault(FaultKind.RECOVER, Duration.ofSeconds(60), "gpu-3"),
        new ScheduledFault(FaultKind.COLD, Duration.ofSeconds(70), "gpu-5"),
        new ScheduledFault(FaultKind.STALL, Duration.ofSeconds(80), "gpu-1"),
        new ScheduledFault(FaultKind.CRASH, Duration.ofSeconds(90), "gpu-2"));
  }

  @Test
  void shouldReadMillisecondsSecondsMinutesAndFractions() {
    final FaultSchedule schedule = FaultSchedule.parse("resume@1500ms:gpu-1,zone-restore@2.5s:zone-b,cold@1m:gpu-0");

    assertThat(schedule.entries()).extracting(ScheduledFault::at)
        .containsExactly(Duration.ofMillis(1_500), Duration.ofMillis(2_500), Duration.ofMinutes(1));
  }

  @Test
  void shouldKeepEntriesInTimeOrderAndEntriesAtTheSameTimeInTheOrderWritten() {
    final FaultSchedule schedule = FaultSchedule.parse("crash@30s:gpu-2, stall@10s:gpu-1, oom@10s:gpu-0");

    assertThat(schedule.entries()).extracting(ScheduledFault::target).containsExactly("gpu-1", "gpu-0", "gpu-2");
  }

  @Test
  void shouldGiveBackTheSameScheduleFromItsText() {
    final FaultSchedule schedule = FaultSchedule.parse("oom@1500ms:gpu-3, zone-loss@40s:zone-b");

    assertThat(schedule).hasToString("oom@1500ms:gpu-3, zone-loss@40s:zone-b");
    assertThat(FaultSchedule.parse(schedule.toString()).entries()).isEqualTo(schedule.entries());
  }

  @Test
  void shouldReadABlankScheduleAsNoFaults() {
    assertThat(FaultSchedule.parse("  ").isEmpty()).isTrue();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "oom@20:gpu-3|oom@20:gpu-3",
      "oom 20s gpu-3|oom 20s gpu-3",
      "oom@20s|oom@20s",
      "oom@20s:|oom@20s:",
      "oom@-5s:gpu-3|oom@-5s:gpu-3",
      "oom@20h:gpu-3|oom@20h:gpu-3",
      "oom@20s:gpu-3,,crash@30s:gpu-1|entry 2 ''",
      "oom@20s:gpu-3,|entry 2 ''"})
  void shouldNameTheEntryThatDoesNotFollowTheGrammarAndTheExpectedForm(final String text, final String named) {
    assertThatThrownBy(() -> FaultSchedule.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(named)
        .hasMessageContaining("<kind>@<offset>:<target>");
  }

  @Test
  void shouldNameAnUnknownKindAndTheKindsThereAre() {
    assertThatThrownBy(() -> FaultSchedule.parse("oom@20s:gpu-3, explode@30s:gpu-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("entry 2 'explode@30s:gpu-1'")
        .hasMessageContaining("unknown kind 'explode'")
        .hasMessageContaining("oom, recover, cold, stall, resume, crash, zone-loss, zone-restore");
  }
}
