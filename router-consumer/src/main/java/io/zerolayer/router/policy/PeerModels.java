package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * One latency model per served model and instance class (an instance that reports no class is
 * of its model's unnamed class). Instances of one model and class decode alike, but each one's own
 * fit is noisy: a decode-step slope fitted over the few batch sizes an instance saw in its first
 * seconds came out anywhere from 0.06 to 0.65 ms per sequence in one benchmark run (the
 * simulated engines all take 0.5), and ranked by those fits the router kept sending a low-slope
 * instance work far past its share. So every instance of a model is predicted with the median of
 * its peers' fitted coefficients (of those with completions; for the decode step, of those with a
 * step fit), and instances differ by what the heatmap measures live: running and queued
 * requests, weight and zone. One that is slower than its peers holds its sequences longer, and
 * its running count keeps new work off it. An instance that has served nothing yet is predicted
 * like its peers too, not with the configured defaults that could keep it idle.
 */
final class PeerModels {

  /**
   * Works the pooled models of a snapshot out when first asked, once: a router ranks every
   * instance for every request, and the medians of a large fleet cost more than the ranking.
   * The rows of a snapshot's copies with more load on them keep their latency models, so the
   * copies share the memo.
   */
  static final class Memo {
    private final Collection<InstanceScore> rows;
    private volatile PeerModels models;

    Memo(final Collection<InstanceScore> rows) {
      this.rows = rows;
    }

    PeerModels get() {
      PeerModels current = models;
      if (current == null) {
        current = new PeerModels(rows);
        models = current;
      }
      return current;
    }
  }

  /** Peers: instances of one served model and one class. */
  private record Peers(String model, String instanceClass) {
    static Peers of(final InstanceScore row) {
      return new Peers(row.getModel(), row.getInstanceClass());
    }
  }

  private final Map<Peers, LatencyModel> byPeers = new HashMap<>();

  PeerModels(final Collection<InstanceScore> rows) {
    final Map<Peers, List<LatencyModel>> all = new HashMap<>();
    for (final InstanceScore row : rows) {
      all.computeIfAbsent(Peers.of(row), peers -> new ArrayList<>()).add(row.getLatencyModel());
    }
    all.forEach((peers, fits) -> byPeers.put(peers, pooled(fits)));
    final Map<Peers, LatencyModel> borrowed = new HashMap<>();
    byPeers.forEach((peers, model) -> {
      if (model.getSamples() == 0) {
        borrowed.put(peers, borrowed(peers, model));
      }
    });
    byPeers.putAll(borrowed);
  }

  /**
   * The model of a class none of whose instances has enough completions for a fit yet: the fit
   * of the best-known other class of its served model, its times scaled by how much slower or
   * faster this class decodes (both steps measured live from telemetry), so that a slow class a
   * router seldom uses is not predicted with the defaults, which know no class (the slow class of
   * a mixed benchmark fleet came out 2 to 4 times faster to its first token than it was). An
   * accelerator that decodes more slowly prefills more slowly too, if not by exactly as much;
   * the class's own fit replaces this as soon as it has one. Without such a class, or without a
   * step for either, the defaults stay.
   */
  private LatencyModel borrowed(final Peers peers, final LatencyModel own) {
    if (!LatencyPredictor.knowsDecodeStep(own)) {
      return own;
    }
    LatencyModel reference = null;
    for (final Map.Entry<Peers, LatencyModel> other : byPeers.entrySet()) {
      final LatencyModel candidate = other.getValue();
      if (Objects.equals(other.getKey().model(), peers.model()) && candidate.getSamples() > 0
          && LatencyPredictor.knowsDecodeStep(candidate)
          && (reference == null || candidate.getSamples() > reference.getSamples())) {
        reference = candidate;
      }
    }
    if (reference == null) {
      return own;
    }
    final double scale = stepOfOne(own) / stepOfOne(reference);
    return LatencyModel.newBuilder(reference)
        .setLatencyInterceptMs(scale * reference.getLatencyInterceptMs())
        .setLatencyPerInputTokenMs(scale * reference.getLatencyPerInputTokenMs())
        .setLatencyPerOutputTokenMs(scale * reference.getLatencyPerOutputTokenMs())
        .setTtftInterceptMs(scale * reference.getTtftInterceptMs())
        .setTtftPerInputTokenMs(scale * reference.getTtftPerInputTokenMs())
        .setTtftPerOutputTokenMs(scale * reference.getTtftPerOutputTokenMs())
        .setQueueWaitScale(own.getQueueWaitScale())
        .setDecodeStepBaseMs(own.getDecodeStepBaseMs())
        .setDecodeStepPerSequenceMs(own.getDecodeStepPerSequenceMs())
        .setHandoffMs(own.getHandoffMs())
        .setSamples(0)
        .build();
  }

  /** The decode step of a batch of one. */
  private static double stepOfOne(final LatencyModel model) {
    return model.getDecodeStepBaseMs() + model.getDecodeStepPerSequenceMs();
  }

  /** The latency model the row's instance is predicted with: the pooled fit of its model and class. */
  LatencyModel of(final InstanceScore row) {
    return byPeers.getOrDefault(Peers.of(row), row.getLatencyModel());
  }

  /**
   * The medians of the fits; where no instance has completions yet, the defaults they all
   * carry; where none has a decode-step fit, no step.
   */
  private static LatencyModel pooled(final List<LatencyModel> fits) {
    final List<LatencyModel> completed = fits.stream().filter(fit -> fit.getSamples() > 0).toList();
    final LatencyModel.Builder model = LatencyModel.newBuilder(fits.get(0));
    if (!completed.isEmpty()) {
      model.setLatencyInterceptMs(median(completed, LatencyModel::getLatencyInterceptMs))
          .setLatencyPerInputTokenMs(median(completed, LatencyModel::getLatencyPerInputTokenMs))
          .setLatencyPerOutputTokenMs(median(completed, LatencyModel::getLatencyPerOutputTokenMs))
          .setTtftInterceptMs(median(completed, LatencyModel::getTtftInterceptMs))
          .setTtftPerInputTokenMs(median(completed, LatencyModel::getTtftPerInputTokenMs))
          .setTtftPerOutputTokenMs(median(completed, LatencyModel::getTtftPerOutputTokenMs))
          .setExpectedOutputShare(median(completed, LatencyModel::getExpectedOutputShare))
          .setMeanInputTokens(median(completed, LatencyModel::getMeanInputTokens))
          .setMeanOutputTokens(median(completed, LatencyModel::getMeanOutputTokens))
          .setFirstChunkTokens(median(completed, LatencyModel::getFirstChunkTokens))
          .setSamples(completed.stream().mapToLong(LatencyModel::getSamples).sum());
    }
    final List<LatencyModel> stepped = fits.stream().filter(LatencyPredictor::knowsDecodeStep).toList();
    // Learned from queued attempts, which an instance may have before enough completions for a fit.
    return model.setQueueWaitScale(median(fits, LatencyModel::getQueueWaitScale))
        .setDecodeStepBaseMs(stepped.isEmpty() ? 0.0 : median(stepped, LatencyModel::getDecodeStepBaseMs))
        .setDecodeStepPerSequenceMs(stepped.isEmpty() ? 0.0
            : median(stepped, LatencyModel::getDecodeStepPerSequenceMs))
        .build();
  }

  private static double median(final List<LatencyModel> fits, final ToDoubleFunction<LatencyModel> coefficient) {
    final double[] values = fits.stream().mapToDouble(coefficient).sorted().toArray();
    final int middle = values.length / 2;
    return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  }
}
