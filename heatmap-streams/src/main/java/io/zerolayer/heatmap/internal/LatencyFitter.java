package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Online least-squares fit of latency and TTFT to (1, input tokens, output tokens) over an
 * instance's completions. Older completions count less: the sufficient statistics decay with a
 * half-life, so the fit follows an instance whose speed changes.
 */
public final class LatencyFitter {

  private static final int DIMENSIONS = 3;
  /** Ridge term relative to the Gram matrix's trace: keeps a nearly singular fit finite. */
  private static final double RIDGE = 1e-12;
  /**
   * A pivot smaller than this share of the trace means the completions cannot tell the
   * coefficients apart (all of one shape, say); the defaults are kept rather than a fit that
   * only the ridge decides.
   */
  private static final double SINGULAR = 1e-8;

  private final double halfLifeMs;
  private final long minSamples;
  private final LatencyModel defaults;

  /**
   * @param halfLifeMs after this long a completion weighs half as much
   * @param minSamples completions needed before the fit replaces the defaults
   * @param defaults the model of an instance without enough completions
   */
  public LatencyFitter(final long halfLifeMs, final long minSamples, final LatencyModel defaults) {
    this.halfLifeMs = halfLifeMs;
    this.minSamples = minSamples;
    this.defaults = requireNonNull(defaults, "defaults");
  }

  /** Adds one completion to an instance's statistics (null: none yet). */
  public LatencyFit add(final LatencyFit previous, final int inputTokens, final int outputTokens,
      final double latencyMs, final double ttftMs, final long atMs) {
    final double[] gram = previous == null ? new double[DIMENSIONS * DIMENSIONS] : toArray(previous.getGram());
    final double[] latency = previous == null ? new double[DIMENSIONS] : toArray(previous.getLatencyMoment());
    final double[] ttft = previous == null ? new double[DIMENSIONS] : toArray(previous.getTtftMoment());
    final long lastMs = previous == null ? atMs : previous.getUpdatedAtMs();
    // The statistics age to the newer of the two times; a completion older than them counts as
    // much as it would have, had it come in order.
    final double keep = Math.pow(0.5, Math.max(0, atMs - lastMs) / halfLifeMs);
    final double weight = Math.pow(0.5, Math.max(0, lastMs - atMs) / halfLifeMs);
    final double[] x = {1.0, inputTokens, outputTokens};
    for (int i = 0; i < DIMENSIONS; i++) {
      for (int j = 0; j < DIMENSIONS; j++) {
        gram[i * DIMENSIONS + j] = keep * gram[i * DIMENSIONS + j] + weight * x[i] * x[j];
      }
      latency[i] = keep * latency[i] + weight * x[i] * latencyMs;
      ttft[i] = keep * ttft[i] + weight * x[i] * ttftMs;
    }
    return LatencyFit.newBuilder().setGram(toList(gram)).setLatencyMoment(toList(latency))
        .setTtftMoment(toList(ttft)).setSamples(previous == null ? 1 : previous.getSamples() + 1)
        .setUpdatedAtMs(Math.max(atMs, lastMs)).build();
  }

  /** The model the statistics give, or the defaults while they are too few or degenerate. */
  public LatencyModel model(final LatencyFit fit) {
    if (fit == null || fit.getSamples() < minSamples) {
      return defaults;
    }
    final double[] gram = toArray(fit.getGram());
    final double[] latency = solve(gram, toArray(fit.getLatencyMoment()));
    final double[] ttft = solve(gram, toArray(fit.getTtftMoment()));
    if (latency == null || ttft == null) {
      return defaults;
    }
    // No time is negative: a coefficient the noise pushed below 0 counts as 0.
    return LatencyModel.newBuilder()
        .setLatencyInterceptMs(Math.max(0, latency[0])).setLatencyPerInputTokenMs(Math.max(0, latency[1]))
        .setLatencyPerOutputTokenMs(Math.max(0, latency[2])).setTtftInterceptMs(Math.max(0, ttft[0]))
        .setTtftPerInputTokenMs(Math.max(0, ttft[1])).setTtftPerOutputTokenMs(Math.max(0, ttft[2]))
        .setSamples(fit.getSamples()).build();
  }

  /** Solves (G + ridge) b = m by Gaussian elimination with partial pivoting; null when singular. */
  static double[] solve(final double[] gram, final double[] moment) {
    final double trace = gram[0] + gram[4] + gram[8];
    final double ridge = RIDGE * trace;
    final double[][] a = new double[DIMENSIONS][DIMENSIONS + 1];
    for (int i = 0; i < DIMENSIONS; i++) {
      for (int j = 0; j < DIMENSIONS; j++) {
        a[i][j] = gram[i * DIMENSIONS + j] + (i == j ? ridge : 0.0);
      }
      a[i][DIMENSIONS] = moment[i];
    }
    for (int col = 0; col < DIMENSIONS; col++) {
      int pivot = col;
      for (int row = col + 1; row < DIMENSIONS; row++) {
        if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) {
          pivot = row;
        }
      }
      if (Math.abs(a[pivot][col]) < SINGULAR * trace) {
        return null;
      }
      final double[] swap = a[col];
      a[col] = a[pivot];
      a[pivot] = swap;
      for (int row = 0; row < DIMENSIONS; row++) {
        if (row != col) {
          final double factor = a[row][col] / a[col][col];
          for (int k = col; k <= DIMENSIONS; k++) {
            a[row][k] -= factor * a[col][k];
          }
        }
      }
    }
    final double[] solution = new double[DIMENSIONS];
    for (int i = 0; i < DIMENSIONS; i++) {
      solution[i] = a[i][DIMENSIONS] / a[i][i];
    }
    return solution;
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
