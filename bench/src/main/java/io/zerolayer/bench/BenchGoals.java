package io.zerolayer.bench;

import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RoundRobinPolicy;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;

/**
 * The goals Zerolayer's policy is held to under the fault scenarios, checked against a run's
 * figures: P99 latency at most 0.25x round-robin's and lower than every other policy's, an
 * error rate of at most 0.03 %, traffic off an OOM instance within 1.2 s with no failed
 * request, at least 95 % of a lossy zone's traffic moved while another zone had room, a cold
 * instance's first request within 1.2x the warm median, and predictions of TTFT and latency
 * within 15 % on average. Each verdict is "met", "not met" or "n/a" with the reason.
 */
final class BenchGoals {

  static final String POLICY = LatencyAwarePolicy.NAME;
  /** The control group, round-robin as an nginx upstream runs it; when it was not run, round-robin with cut-over. */
  static final String CONTROL = RoundRobinPolicy.NAME + Contender.NO_CUTOVER;
  static final double P99_OF_CONTROL = 0.25;
  static final double MAX_ERROR_RATE = 0.0003;
  static final double MAX_OOM_OFF_MS = 1_200;
  static final double MIN_ZONE_MOVED = 0.95;
  static final double MAX_COLD_RATIO = 1.2;
  static final double MAX_PREDICTION_ERROR = 0.15;

  private BenchGoals() {
  }

  /** The goal and its verdict for each row that has one. */
  static Map<FigureRow, String> check(final List<PolicyFigures> all) {
    final Map<FigureRow, String> goals = new EnumMap<>(FigureRow.class);
    final Optional<PolicyFigures> ours = find(all, POLICY);
    if (ours.isEmpty()) {
      goals.put(FigureRow.LATENCY_P99, "n/a: " + POLICY + " was not run");
      return goals;
    }
    final PolicyFigures z = ours.get();
    goals.put(FigureRow.LATENCY_P99, p99(all));
    goals.put(FigureRow.ERROR_RATE, "<= 0.03 %: " + verdict(value(z, FigureRow.ERROR_RATE), v -> v <= MAX_ERROR_RATE));
    goals.put(FigureRow.OOM_OFF, "<= 1,200 ms with 0 failed: " + oom(z));
    goals.put(FigureRow.ZONE_MOVED, ">= 95 %: " + verdict(value(z, FigureRow.ZONE_MOVED), v -> v >= MIN_ZONE_MOVED));
    goals.put(FigureRow.COLD_START, "<= 1.2x: " + verdict(value(z, FigureRow.COLD_START), v -> v <= MAX_COLD_RATIO));
    goals.put(FigureRow.PREDICTION_ERROR, "<= 15 % each: " + verdict(value(z, FigureRow.PREDICTION_ERROR),
        v -> v <= MAX_PREDICTION_ERROR));
    return goals;
  }

  private static String p99(final List<PolicyFigures> all) {
    final Map<String, OptionalDouble> p99s = new LinkedHashMap<>();
    all.forEach(f -> p99s.put(f.policy(), value(f, FigureRow.LATENCY_P99)));
    return p99(p99s);
  }

  /**
   * The P99 goal's verdict on each policy's P99 latency: at most 0.25x the control group's, and
   * lower than every other policy's.
   *
   * @param p99s each policy's P99 by its label
   */
  static String p99(final Map<String, OptionalDouble> p99s) {
    if (!p99s.containsKey(POLICY)) {
      return "n/a: " + POLICY + " was not run";
    }
    final OptionalDouble ours = p99s.get(POLICY);
    final String controlName = p99s.containsKey(CONTROL) || !p99s.containsKey(RoundRobinPolicy.NAME) ? CONTROL
        : RoundRobinPolicy.NAME;
    final OptionalDouble control = p99s.getOrDefault(controlName, OptionalDouble.empty());
    final String ratio = control.isEmpty() ? "n/a (no " + controlName + " P99)"
        : Figure.format("(<= %,.0f ms) ", P99_OF_CONTROL * control.getAsDouble())
            + verdict(ours, v -> v <= P99_OF_CONTROL * control.getAsDouble());
    final Optional<Map.Entry<String, OptionalDouble>> lower = p99s.entrySet().stream()
        .filter(other -> !other.getKey().equals(POLICY) && ours.isPresent())
        .filter(other -> other.getValue().orElse(Double.POSITIVE_INFINITY) <= ours.getAsDouble())
        .min(Comparator.comparingDouble(other -> other.getValue().getAsDouble()));
    final String best = lower.map(other -> Figure.format("not met (%s %,.0f ms)", other.getKey(),
        other.getValue().getAsDouble())).orElseGet(() -> verdict(ours, v -> true));
    return "<= 0.25x " + controlName + " " + ratio + "; lowest of all: " + best;
  }

  private static String oom(final PolicyFigures z) {
    final OptionalDouble off = value(z, FigureRow.OOM_OFF);
    final OptionalDouble failed = value(z, FigureRow.OOM_FAILED);
    if (off.isEmpty() || failed.isEmpty()) {
      return "n/a";
    }
    return off.getAsDouble() <= MAX_OOM_OFF_MS && failed.getAsDouble() == 0 ? "met" : "not met";
  }

  private static String verdict(final OptionalDouble value, final DoublePredicate goal) {
    if (value.isEmpty()) {
      return "n/a";
    }
    return goal.test(value.getAsDouble()) ? "met" : "not met";
  }

  private static OptionalDouble value(final PolicyFigures figures, final FigureRow row) {
    return row.of(figures).value();
  }

  private static Optional<PolicyFigures> find(final List<PolicyFigures> all, final String policy) {
    return all.stream().filter(f -> f.policy().equals(policy)).findFirst();
  }
}
