package io.zerolayer.heatmap.internal;

/**
 * The latency fit's solver: least squares over a completion's (1, input tokens, output tokens)
 * from their weighted Gram matrix and moments, pulled towards the defaults as a prior, with no
 * coefficient negative. The prior keeps the system solvable and the coefficients sane while
 * the completions are too alike to tell them apart.
 */
final class PriorRidge {

  /** The coefficients: intercept, per input token, per output token. */
  static final int DIMENSIONS = 3;
  /** How many completions the defaults are worth. */
  private static final double PRIOR_SAMPLES = 0.02;
  /** A default's share of the prediction below which it counts as this share (a zero default stays near zero). */
  private static final double MIN_SHARE = 1e-3;

  private PriorRidge() {
  }

  /**
   * The defaults' weight on each coefficient: {@link #PRIOR_SAMPLES} completions of the mean shape,
   * spread so that a correction the data cannot place falls on each coefficient in proportion to
   * its default (the precision of coefficient i is inverse to its default's share of the
   * prediction at the mean shape).
   */
  private static double[] priorPrecision(final double[] gram, final double[] prior) {
    final double weight = Math.max(gram[0], Double.MIN_NORMAL);
    final double[] size = new double[DIMENSIONS];
    double predicted = 0;
    for (int i = 0; i < DIMENSIONS; i++) {
      size[i] = Math.sqrt(Math.max(1.0, gram[i * DIMENSIONS + i] / weight));
      predicted += Math.max(0, prior[i]) * size[i];
    }
    predicted = Math.max(predicted, 1.0);
    final double[] precision = new double[DIMENSIONS];
    for (int i = 0; i < DIMENSIONS; i++) {
      final double share = Math.max(MIN_SHARE, Math.max(0, prior[i]) * size[i] / predicted);
      precision[i] = PRIOR_SAMPLES * size[i] * size[i] / share;
    }
    return precision;
  }

  /**
   * The coefficients b that minimise the weighted squared error plus the prior's
   * sum of precision_i (b_i - prior_i)^2 ({@link #priorPrecision}), none negative: (G + P) b = m + P prior over the
   * coefficients left free, those that came out negative held at 0, until none does.
   */
  static double[] solve(final double[] gram, final double[] moment, final double[] prior) {
    final double[] precision = priorPrecision(gram, prior);
    final boolean[] zero = new boolean[DIMENSIONS];
    while (true) {
      final double[] b = solveFree(gram, moment, precision, prior, zero);
      boolean clipped = false;
      for (int i = 0; i < DIMENSIONS; i++) {
        if (!zero[i] && b[i] < 0) {
          zero[i] = true;
          clipped = true;
        }
      }
      if (!clipped) {
        return b;
      }
    }
  }

  /** Solves the system over the free coefficients by Gaussian elimination; the others are 0. */
  private static double[] solveFree(final double[] gram, final double[] moment, final double[] precision,
      final double[] prior, final boolean[] zero) {
    final int[] free = new int[DIMENSIONS];
    int n = 0;
    for (int i = 0; i < DIMENSIONS; i++) {
      if (!zero[i]) {
        free[n++] = i;
      }
    }
    final double[][] a = new double[n][n + 1];
    for (int r = 0; r < n; r++) {
      final int i = free[r];
      for (int c = 0; c < n; c++) {
        final int j = free[c];
        a[r][c] = gram[i * DIMENSIONS + j] + (i == j ? precision[i] : 0.0);
      }
      a[r][n] = moment[i] + precision[i] * prior[i];
    }
    // The prior makes the matrix positive definite: no pivot is zero.
    for (int col = 0; col < n; col++) {
      int pivot = col;
      for (int row = col + 1; row < n; row++) {
        if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) {
          pivot = row;
        }
      }
      final double[] swap = a[col];
      a[col] = a[pivot];
      a[pivot] = swap;
      for (int row = 0; row < n; row++) {
        if (row != col) {
          final double factor = a[row][col] / a[col][col];
          for (int k = col; k <= n; k++) {
            a[row][k] -= factor * a[col][k];
          }
        }
      }
    }
    final double[] solution = new double[DIMENSIONS];
    for (int r = 0; r < n; r++) {
      solution[free[r]] = a[r][n] / a[r][r];
    }
    return solution;
  }
}
