package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OwnerHealthTest {

  @Test
  void shouldMoveEverySequenceOfAnEjectedOwner() {
    final OwnerHealth owners = health(row("gpu-1", InstanceState.EJECTED, 1.0),
        row("gpu-2", InstanceState.HEALTHY, 1.0));

    assertThat(owners.trouble("gpu-1", true)).startsWith("owner gpu-1 ejected by the heatmap");
    assertThat(owners.trouble("gpu-2", true)).isNull();
    assertThat(owners.trouble("unknown", false)).isNull();
  }

  @Test
  void shouldMoveTheUnstartedSequencesOfAColdOwnerWhileAWarmInstanceCanTakeThem() {
    final OwnerHealth owners = health(row("cold", InstanceState.HEALTHY, 0.0),
        row("warm", InstanceState.HEALTHY, 1.0));

    assertThat(owners.trouble("cold", false)).isEqualTo(
        "owner cold is loading its weights (warm-up 0%) and a warm instance can start the sequence now");
    assertThat(owners.trouble("cold", true)).isNull();
    assertThat(health(row("loading", InstanceState.HEALTHY, 0.9), row("warm", InstanceState.HEALTHY, 0.95))
        .trouble("loading", false)).contains("warm-up 90%");
  }

  @Test
  void shouldLeaveAColdOwnersSequencesWhereTheyAreWhenNoWarmInstanceIsLeft() {
    final OwnerHealth owners = health(row("cold", InstanceState.HEALTHY, 0.0), row("other-cold", InstanceState.HEALTHY,
        0.02), row("warm-but-ejected", InstanceState.EJECTED, 1.0), row("warming", InstanceState.HEALTHY, 0.94));

    assertThat(owners.trouble("cold", false)).isNull();
  }

  private static OwnerHealth health(final InstanceScore... rows) {
    final Map<String, InstanceScore> byId = Arrays.stream(rows)
        .collect(Collectors.toMap(InstanceScore::getInstanceId, Function.identity()));
    final List<InstanceScore> all = List.of(rows);
    return new OwnerHealth(byId::get, all);
  }

  private static InstanceScore row(final String id, final InstanceState state, final double warmup) {
    return InstanceScore.newBuilder().setInstanceId(id).setZone("zone-a").setModel("sim-8b").setState(state)
        .setWeight(state == InstanceState.EJECTED ? 0.0 : 1.0).setReason("test").setWarmupLevel(warmup)
        .setGpuUtilization(0.5).setVramFragmentation(0.1).setTokenIntervalStddevMs(4.0).setTcpRetransmitRate(0.0)
        .setQueueLength(0).setRunningRequests(1).setDecodeTokensPerS(50.0)
        .setLatencyModel(LatencyModel.newBuilder().setLatencyInterceptMs(40).setLatencyPerInputTokenMs(0.1)
            .setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40).setTtftPerInputTokenMs(0.1).setSamples(0).build())
        .setLastTelemetryMs(0).setUpdatedAtMs(0).build();
  }
}
