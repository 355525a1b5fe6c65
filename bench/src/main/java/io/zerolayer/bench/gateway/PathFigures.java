package io.zerolayer.bench.gateway;

import dev.langchain4j.exception.HttpException;
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

  private static final int OVERLOADED = 503;

  private final List<Double> firstTokenMs = new ArrayList<>();
  private final List<Double> gapsMs = new ArrayList<>();
  private final List<Double> tokensPerSecond = new ArrayList<>();
  private final Map<String, Integer> errorKinds = new TreeMap<>();
  private int errors;
  private int refused;

  synchronized void add(final StreamTiming timing, final int tokens) {
    firstTokenMs.add(timing.firstTokenMs());
    gapsMs.addAll(timing.gapsMs());
    tokensPerSecond.add(timing.tokensPerSecond(tokens));
  }

  /**
   * Notes a request that got no answer: refused at the door (503 with a retry time, which a client
   * tries again later), or any other error.
   */
  synchronized void error(final Throwable error) {
    if (refusedAtTheDoor(error)) {
      refused++;
      return;
    }
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

  /** Requests refused at once as overloaded (503), which a client tries again after its retry-after. */
  public synchronized int refused() {
    return refused;
  }

  private static boolean refusedAtTheDoor(final Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpException http && http.statusCode() == OVERLOADED) {
        return true;
      }
    }
    return false;
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
