package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.HashMap;
import java.util.Map;

/**
 * Stands in for what an instance's own fit does not know yet: an instance without completions
 * is predicted with the latency model of its best-known peer (the instance of the same model with
 * the most completions behind its fit), and one without a decode-step fit with the peer's step.
 * Without this, an instance that has served nothing yet keeps the configured defaults, which
 * can make it look slower than the rest of the fleet, so it is never picked and never learns.
 */
final class PeerModels {

  private final Map<String, LatencyModel> bestByModel = new HashMap<>();

  PeerModels(final Heatmap heatmap) {
    for (final InstanceScore row : heatmap.all()) {
      final LatencyModel model = row.getLatencyModel();
      final LatencyModel best = bestByModel.get(row.getModel());
      if (model.getSamples() > 0 && (best == null || model.getSamples() > best.getSamples())) {
        bestByModel.put(row.getModel(), model);
      }
    }
  }

  /** The row as it is predicted: with the peer's model or step where its own is unknown. */
  InstanceScore predictable(final InstanceScore row) {
    final LatencyModel own = row.getLatencyModel();
    final LatencyModel peer = bestByModel.get(row.getModel());
    if (peer == null || own.getSamples() > 0 && LatencyPredictor.knowsDecodeStep(own)) {
      return row;
    }
    final LatencyModel model = own.getSamples() == 0 ? peer
        : LatencyModel.newBuilder(own).setDecodeStepBaseMs(peer.getDecodeStepBaseMs())
            .setDecodeStepPerSequenceMs(peer.getDecodeStepPerSequenceMs()).build();
    return InstanceScore.newBuilder(row).setLatencyModel(model).build();
  }
}
