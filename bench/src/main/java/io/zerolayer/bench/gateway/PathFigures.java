package io.zerolayer.bench.gateway;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one way in (straight to the engine, or through Zerolayer) gave at one rate: time to first
 * token, the gaps between pieces of text, and each answer's tokens a second.
 */
public final class PathFigures {

  private final List<Double> firstTokenMs = new ArrayList<>();
  private final List<Double> gapsMs = new ArrayList<>();
  private final List<Double> tokensPerSecond = new ArrayList<>();
  private final Map<String, Integer> errorKinds = new TreeMap<>();
  private int errors;

  synchronized void add(final StreamTiming timing, final int tokens) {
    firstTokenMs.add(timing.firstTokenMs());
    gapsMs.addAll(timing.gapsMs());
    tokensPerSecond.add(timing.tokensPerSecond(tokens));
  }

  synchronized void error(final Throwable error) {
    errors++;
    final String message = String.valueOf(error.getMessage());
    errorKinds.merge(error.getClass().getSimpleName() + ": " + message.substring(0, Math.min(120, message.length())),
        1, Integer::sum);
  }

  /** Each kind of error (exception and the start of its message) and how often it came. */
  public synchronized Map<String, Integer> errorKinds() {
    return Map.copyOf(errorKinds);
  }

  public synchronized int answered() {
    return firstTokenMs.size();
  }

  public synchronized int errors() {
    return errors;
  }

  /** The {@code p}-th percentile (nearest rank) of the time to first token, ms. */
  public synchronized double firstTokenMs(final double p) {
    return percentile(firstTokenMs, p);
  }

  public synchronized double gapMs(final double p) {
    return percentile(gapsMs, p);
  }

  public synchronized double tokensPerSecond(final double p) {
    return percentile(tokensPerSecond, p);
  }

  private static double percentile(final List<Double> values, final double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    final List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    final int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
