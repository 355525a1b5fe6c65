package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceState;
import org.junit.jupiter.api.Test;

class InstanceMachineTest {

  private final InstanceMachine machine = new InstanceMachine(new RuleTimings(3_000, 3_000, 500, 2_000));
  private final Signals healthy = new Signals(0.1, 0.1, 0.5, 4.0, 0.0, 0.0, 1.0);

  @Test
  void shouldEjectAnInstanceSilentForTwoSeconds() {
    final Machine sampled = machine.onSample("gpu-1", "zone-a", null, healthy, 1_000).machine();

    assertThat(machine.onTick("gpu-1", "zone-a", sampled, 1_000, healthy, 3_100, false).machine().state())
        .isEqualTo(InstanceState.EJECTED);
  }

  @Test
  void shouldJudgeNoSilenceWhileTheHeatmapReadsItsTelemetryLate() {
    final Machine sampled = machine.onSample("gpu-1", "zone-a", null, healthy, 1_000).machine();

    final Assessment late = machine.onTick("gpu-1", "zone-a", sampled, 1_000, healthy, 3_100, true);

    assertThat(late.machine().state()).isEqualTo(sampled.state());
    assertThat(late.transition()).isNull();
  }
}
