package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Online fit of latency and TTFT to (1, input tokens, output tokens) over an instance's
 * completions, shrunk toward the defaults: the defaults count as a fiftieth of a completion of the
 * instance's own mean shape, and where the completions cannot tell the coefficients apart (every
 * prompt about as long, say) the fit scales the defaults by one factor to match what it saw,
 * rather than letting the noise split it (a plain least-squares fit once put 81 ms on each input
 * token). What the completions can tell apart follows them. No coefficient is negative: those
 * the fit would push below 0 are held at 0 and the others fitted again. Older completions count
 * less: the sufficient statistics decay with a half-life, so the fit follows an instance whose
 * speed changes. When the instance's own fit keeps missing its completions the same way (a start
 * slowed by warming up, an engine that changed speed), the past is halved at each completion
 * until the fit catches up, instead of outweighing the present for a half-life.
 */
public final class LatencyFitter {

  private static final int DIMENSIONS = PriorRidge.DIMENSIONS;
  /** Weight of the newest completion in the moving averages (output share, handoff, queue waits). */
  static final double AVERAGE_WEIGHT = 0.05;
  /** Attempts with an estimated queue wait needed before their waits scale the estimates. */
  static final long MIN_QUEUED_SAMPLES = 5;
  /** The bounds of the queue-wait scale: a few odd waits move it, none takes it anywhere. */
  static final double MIN_QUEUE_SCALE = 0.25;
  static final double MAX_QUEUE_SCALE = 4.0;
  /** Weight of the newest completion in the moving averages of the fit's signed error (its drift). */
  static final double DRIFT_WEIGHT = 0.25;
  /** Each completion's term in the drift, ln(predicted / observed), is held within this bound either way. */
  static final double DRIFT_TERM_LIMIT = 1.0;
  /**
   * A drift beyond this (the fit some 40 % high or 30 % low, in three completions or more) halves the
   * past: one odd completion, its term bounded, cannot.
   */
  static final double DRIFT_LIMIT = 0.35;
  /** What is kept of the past at each completion while the fit drifts. */
  static final double DRIFT_KEEP = 0.5;

  private final double halfLifeMs;
  private final long minSamples;
  private final LatencyModel defaults;
  /** The defaults' coefficients, (intercept, per input token, per output token), the fit's prior. */
  private final double[] latencyPrior;
  private final double[] ttftPrior;

  /**
   * @param halfLifeMs after this long a completion weighs half as much
   * @param minSamples completions needed before the fit replaces the defaults
   * @param defaults the model of an instance without enough completions
   */
  public LatencyFitter(final long halfLifeMs, final long minSamples, final LatencyModel defaults) {
    this.halfLifeMs = halfLifeMs;
    this.minSamples = minSamples;
    this.defaults = requireNonNull(defaults, "defaults");
    latencyPrior = new double[] {defaults.getLatencyInterceptMs(), defaults.getLatencyPerInputTokenMs(),
        defaults.getLatencyPerOutputTokenMs()};
    ttftPrior = new double[] {defaults.getTtftInterceptMs(), defaults.getTtftPerInputTokenMs(),
        defaults.getTtftPerOutputTokenMs()};
  }

  /** Adds one completion to an instance's statistics (null: none yet). */
  public LatencyFit add(final LatencyFit previous, final int inputTokens, final int outputTokens,
      final double latencyMs, final double ttftMs, final long atMs) {
    final double[] gram = previous == null ? new double[DIMENSIONS * DIMENSIONS] : toArray(previous.getGram());
    final double[] latency = previous == null ? new double[DIMENSIONS] : toArray(previous.getLatencyMoment());
    final double[] ttft = previous == null ? new double[DIMENSIONS] : toArray(previous.getTtftMoment());
    final long lastMs = previous == null ? atMs : previous.getUpdatedAtMs();
    // Measured against the fit before it, once the fit is the instance's own.
    final LatencyModel before = previous == null || previous.getSamples() < minSamples ? null : model(previous);
    final double ttftDrift = before == null ? 0.0
        : drifted(previous.getTtftDrift(), ttft(before, inputTokens, outputTokens), ttftMs);
    final double latencyDrift = before == null ? 0.0
        : drifted(previous.getLatencyDrift(), latency(before, inputTokens, outputTokens), latencyMs);
    final double drift = Math.abs(ttftDrift) > DRIFT_LIMIT || Math.abs(latencyDrift) > DRIFT_LIMIT ? DRIFT_KEEP : 1.0;
    // The statistics age to the newer of the two times; a completion older than them counts as
    // much as it would have, had it come in order.
    final double keep = drift * Math.pow(0.5, Math.max(0, atMs - lastMs) / halfLifeMs);
    final double weight = Math.pow(0.5, Math.max(0, lastMs - atMs) / halfLifeMs);
    final double[] x = {1.0, inputTokens, outputTokens};
    for (int i = 0; i < DIMENSIONS; i++) {
      for (int j = 0; j < DIMENSIONS; j++) {
        gram[i * DIMENSIONS + j] = keep * gram[i * DIMENSIONS + j] + weight * x[i] * x[j];
      }
      latency[i] = keep * latency[i] + weight * x[i] * latencyMs;
      ttft[i] = keep * ttft[i] + weight * x[i] * ttftMs;
    }
    // The moving averages (output share, handoff, queue waits) carry over; a first fit starts from their defaults.
    return (previous == null ? LatencyFit.newBuilder() : LatencyFit.newBuilder(previous)).setGram(toList(gram))
        .setLatencyMoment(toList(latency)).setTtftMoment(toList(ttft))
        .setSamples(previous == null ? 1 : previous.getSamples() + 1)
        .setTtftDrift(ttftDrift).setLatencyDrift(latencyDrift)
        .setUpdatedAtMs(Math.max(atMs, lastMs)).build();
  }

  /** A drift after one more completion: {@link #DRIFT_WEIGHT} to its term, ln(predicted / observed) within bounds. */
  private static double drifted(final double drift, final double predictedMs, final double observedMs) {
    if (!(predictedMs > 0) || !(observedMs > 0)) {
      return drift;
    }
    final double term = Math.max(-DRIFT_TERM_LIMIT, Math.min(DRIFT_TERM_LIMIT, Math.log(predictedMs / observedMs)));
    return drift + DRIFT_WEIGHT * (term - drift);
  }

  /** The TTFT a model predicts for a request of this shape, in ms. */
  static double ttft(final LatencyModel model, final int inputTokens, final int outputTokens) {
    return model.getTtftInterceptMs() + model.getTtftPerInputTokenMs() * inputTokens
        + model.getTtftPerOutputTokenMs() * outputTokens;
  }

  /** The latency a model predicts for a request of this shape, in ms. */
  static double latency(final LatencyModel model, final int inputTokens, final int outputTokens) {
    return model.getLatencyInterceptMs() + model.getLatencyPerInputTokenMs() * inputTokens
        + model.getLatencyPerOutputTokenMs() * outputTokens;
  }

  /**
   * Adds what a first attempt that finished generated, against its output limit, to the moving
   * average of the share of the limit requests use ({@link #AVERAGE_WEIGHT} to the newest).
   */
  public LatencyFit observeOutput(final LatencyFit fit, final int outputTokens, final int maxOutputTokens) {
    if (maxOutputTokens <= 0) {
      return fit;
    }
    final double share = Math.min(1.0, (double) outputTokens / maxOutputTokens);
    return LatencyFit.newBuilder(fit)
        .setOutputShare(moved(fit.getOutputShare(), share)).build();
  }

  /**
   * Adds a completion's time from the router's decision to the worker's start to its moving
   * average ({@link #AVERAGE_WEIGHT} to the newest; the first one alone, and so the first after
   * statistics that predate the figure, whose average reads 0).
   */
  public LatencyFit observeHandoff(final LatencyFit fit, final double handoffMs) {
    final double average = fit.getSamples() <= 1 || fit.getHandoffMs() == 0.0 ? handoffMs
        : moved(fit.getHandoffMs(), handoffMs);
    return LatencyFit.newBuilder(fit).setHandoffMs(average).build();
  }

  /**
   * Adds the tokens of a completion's first chunk to their moving average ({@link #AVERAGE_WEIGHT}
   * to the newest; the first that says, alone); a completion that does not say (0) leaves it.
   */
  public LatencyFit observeFirstChunk(final LatencyFit fit, final int firstChunkTokens) {
    if (firstChunkTokens <= 0) {
      return fit;
    }
    final double average = fit.getFirstChunkTokens() == 0.0 ? firstChunkTokens
        : moved(fit.getFirstChunkTokens(), firstChunkTokens);
    return LatencyFit.newBuilder(fit).setFirstChunkTokens(average).build();
  }

  /**
   * Adds what an attempt waited in the engine's queue and a router's estimate of that wait, when
   * it estimated one, to their moving averages ({@link #AVERAGE_WEIGHT} to the newest): their
   * ratio is the instance's {@code queueWaitScale}. The estimate is the router's before any scale,
   * so that the ratio does not chase its own correction.
   */
  public LatencyFit observeQueue(final LatencyFit fit, final double queuedMs, final double estimateMs) {
    if (!(estimateMs > 0)) {
      return fit;
    }
    final boolean first = fit.getQueuedSamples() == 0;
    return LatencyFit.newBuilder(fit)
        .setQueuedMs(first ? queuedMs : moved(fit.getQueuedMs(), queuedMs))
        .setQueueEstimateMs(first ? estimateMs : moved(fit.getQueueEstimateMs(), estimateMs))
        .setQueuedSamples(fit.getQueuedSamples() + 1).build();
  }

  /** A moving average after its newest value: {@link #AVERAGE_WEIGHT} to the newest. */
  private static double moved(final double average, final double newest) {
    return average + AVERAGE_WEIGHT * (newest - average);
  }

  /**
   * What attempts waited in the queue over the estimates for them, within
   * [{@link #MIN_QUEUE_SCALE}, {@link #MAX_QUEUE_SCALE}]; 1 until {@link #MIN_QUEUED_SAMPLES} attempts tell.
   */
  static double queueWaitScale(final LatencyFit fit) {
    if (fit.getQueuedSamples() < MIN_QUEUED_SAMPLES || !(fit.getQueueEstimateMs() > 0)) {
      return 1.0;
    }
    return Math.max(MIN_QUEUE_SCALE, Math.min(MAX_QUEUE_SCALE, fit.getQueuedMs() / fit.getQueueEstimateMs()));
  }

  /**
   * The model the statistics give, or the defaults while they are too few; the time from a
   * decision to the worker's start is the instance's own from its first completion on.
   */
  public LatencyModel model(final LatencyFit fit) {
    if (fit == null) {
      return defaults;
    }
    if (fit.getSamples() < minSamples) {
      return LatencyModel.newBuilder(defaults).setHandoffMs(fit.getHandoffMs()).setQueueWaitScale(queueWaitScale(fit))
          .build();
    }
    final double[] gram = toArray(fit.getGram());
    final double[] latency = PriorRidge.solve(gram, toArray(fit.getLatencyMoment()), latencyPrior);
    final double[] ttft = PriorRidge.solve(gram, toArray(fit.getTtftMoment()), ttftPrior);
    return LatencyModel.newBuilder()
        .setLatencyInterceptMs(latency[0]).setLatencyPerInputTokenMs(latency[1])
        .setLatencyPerOutputTokenMs(latency[2]).setTtftInterceptMs(ttft[0])
        .setTtftPerInputTokenMs(ttft[1]).setTtftPerOutputTokenMs(ttft[2])
        .setExpectedOutputShare(fit.getOutputShare())
        .setHandoffMs(fit.getHandoffMs())
        .setFirstChunkTokens(fit.getFirstChunkTokens())
        .setQueueWaitScale(queueWaitScale(fit))
        .setMeanInputTokens(gram[0] > 0 ? gram[1] / gram[0] : 0.0)
        .setMeanOutputTokens(gram[0] > 0 ? gram[2] / gram[0] : 0.0)
        .setSamples(fit.getSamples()).build();
  }

  private static double[] toArray(final List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static List<Double> toList(final double[] values) {
    final List<Double> list = new ArrayList<>(values.length);
    for (final double value : values) {
      list.add(value);
    }
    return list;
  }
}
