package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Heatmap rows for policy tests: a healthy, idle, warm instance unless a test changes it. */
final class Rows {

  static final long NOW_MS = 10_000;
  static final RequestProfile REQUEST = new RequestProfile("seq-1", 100, 50);

  private Rows() {
  }

  static InstanceScore row(final String id) {
    return InstanceScore.newBuilder()
        .setInstanceId(id).setZone("zone-a").setModel("sim").setState(InstanceState.HEALTHY).setWeight(1.0)
        .setReason("test").setWarmupLevel(1.0).setGpuUtilization(0.5).setVramFragmentation(0.1)
        .setTokenIntervalStddevMs(3).setTcpRetransmitRate(0).setQueueLength(0).setRunningRequests(0)
        .setDecodeTokensPerS(800).setZonePenalised(false)
        .setLatencyModel(LatencyModel.newBuilder().setLatencyInterceptMs(40).setLatencyPerInputTokenMs(0.1)
            .setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40).setTtftPerInputTokenMs(0.1)
            .setSamples(0).build())
        .setLastTelemetryMs(NOW_MS).setUpdatedAtMs(NOW_MS)
        .build();
  }

  /** A row holding {@code running} requests and {@code queued} more. */
  static InstanceScore loaded(final String id, final int running, final int queued) {
    final InstanceScore row = row(id);
    row.setRunningRequests(running);
    row.setQueueLength(queued);
    return row;
  }

  static Heatmap heatmap(final InstanceScore... rows) {
    return new Heatmap(Arrays.stream(rows).collect(Collectors.toMap(InstanceScore::getInstanceId,
        Function.identity())), 1);
  }
}
