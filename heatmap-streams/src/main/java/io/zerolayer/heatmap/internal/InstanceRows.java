package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.score.ScoreRows;

/** Maps between an instance's stored status, the state machine and its heatmap row. */
public final class InstanceRows {

  private InstanceRows() {
  }

  /** The machine remembered in a status, or null for none. */
  public static Machine machine(final InstanceStatus status) {
    if (status == null) {
      return null;
    }
    return new Machine(status.getState(), status.getStateSinceMs(), status.getWeight(), status.getReason(),
        status.getCriticalSinceMs(), status.getLastCriticalMs(), status.getCalmSinceMs(), status.getPreClearSent(),
        status.getCutOver(), status.getNetworkDegraded(), status.getRetransmitHighSinceMs());
  }

  /** Copies a machine into a status builder. */
  public static InstanceStatus.Builder remember(final InstanceStatus.Builder status, final Machine machine) {
    return status.setState(machine.state()).setStateSinceMs(machine.sinceMs()).setWeight(machine.weight())
        .setReason(machine.reason()).setCriticalSinceMs(machine.criticalSinceMs())
        .setLastCriticalMs(machine.lastCriticalMs())
        .setCalmSinceMs(machine.calmSinceMs()).setPreClearSent(machine.preClearSent())
        .setCutOver(machine.cutOver()).setNetworkDegraded(machine.networkDegraded())
        .setRetransmitHighSinceMs(machine.retransmitHighSinceMs());
  }

  /**
   * The rules' inputs as a row shows them: it keeps the latest fragmentation, not the window's
   * peak, and the smoothed retransmit rate in place of the latest sample's too.
   */
  public static Signals signals(final InstanceScore row) {
    return new Signals(row.getVramFragmentation(), row.getVramFragmentation(), row.getGpuUtilization(),
        row.getTokenIntervalStddevMs(), row.getTcpRetransmitRate(), row.getTcpRetransmitRate(), row.getWarmupLevel());
  }

  /**
   * Whether going from row {@code before} to row {@code after} takes the instance out of new
   * work's way or asks for its streams to move: it stops being usable, stops being warm (a
   * restart), turns network-degraded, or its cadence passes the cut-over threshold. Routers and
   * token-buffer act on such a row at once, so it is not held back until the next emission.
   */
  public static boolean urgent(final InstanceScore before, final InstanceScore after) {
    return ScoreRows.usable(before) && !ScoreRows.usable(after)
        || ScoreRows.warm(before) && !ScoreRows.warm(after)
        || !before.getNetworkDegraded() && after.getNetworkDegraded()
        || !before.getCutOverInFlight() && after.getCutOverInFlight();
  }

  /**
   * The heatmap row of an instance.
   *
   * @param zoneFactor 1, or the zone penalty when the instance's zone is penalised
   * @param previous the instance's last row, or null for its first
   */
  public static InstanceScore row(final InstanceTelemetry latest, final Signals signals, final double[] ewma,
      final Machine machine, final LatencyModel model, final double zoneFactor, final InstanceScore previous,
      final long nowMs) {
    final boolean penalised = zoneFactor < 1.0;
    return InstanceScore.newBuilder()
        .setInstanceId(latest.getInstanceId())
        .setZone(latest.getZone())
        .setModel(latest.getModel())
        .setInstanceClass(latest.getInstanceClass())
        .setBatchSlots(batchSlots(latest, previous))
        .setState(machine.state())
        .setWeight(Math.max(0.0, Math.min(1.0, machine.weight() * zoneFactor)))
        .setReason(penalised ? machine.reason() + "; zone " + latest.getZone() + " penalised" : machine.reason())
        .setWarmupLevel(signals.warmupLevel())
        .setGpuUtilization(signals.gpuUtilization())
        .setVramFragmentation(signals.fragmentation())
        .setTokenIntervalStddevMs(signals.tgsvMs())
        .setTcpRetransmitRate(signals.retransmitRate())
        .setQueueLength(latest.getQueueLength())
        .setRunningRequests(latest.getRunningRequests())
        .setRunningTokensToLimit(latest.getRunningTokensToLimit())
        .setDecodeTokensPerS(ewma[Metric.DECODE_TOKENS_PER_S.ordinal()])
        .setZonePenalised(penalised)
        .setNetworkDegraded(machine.networkDegraded())
        .setCutOverInFlight(machine.cutOver())
        .setLatencyModel(model)
        .setLastTelemetryMs(latest.getSampleTimeMs())
        .setUpdatedAtMs(nowMs)
        .build();
  }

  /**
   * The batch the instance says it runs, when it says so. Else the most requests a sample with a
   * queue showed running, in the second of two samples in a row with a queue: the batch was full
   * then, else nothing would wait. A queue in one sample alone may be a request caught as it was
   * being admitted between two engine steps, beside free slots; taken for a full batch, it would
   * make every later request on a busy but unfilled instance look queued. The most, not the latest: a sample taken while a queue is being
   * admitted (as a loading instance becomes warm) shows a queue beside free slots.
   */
  static int batchSlots(final InstanceTelemetry latest, final InstanceScore previous) {
    if (latest.getBatchSlots() > 0) {
      return latest.getBatchSlots();
    }
    if (previous == null) {
      return 0;
    }
    final boolean queuedTwice = latest.getQueueLength() > 0 && previous.getQueueLength() > 0
        && previous.getLastTelemetryMs() < latest.getSampleTimeMs();
    return queuedTwice ? Math.max(previous.getBatchSlots(), latest.getRunningRequests()) : previous.getBatchSlots();
  }
}
