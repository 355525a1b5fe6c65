package io.zerolayer.bench;

import io.zerolayer.fleet.load.ChunkArrival;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Streams moved to a backup mid-way (a cut-over decision for a measured request): the share that
 * still completed, and the pause the client saw, from the last token of one attempt to the first
 * token of the next.
 *
 * @param success completed cut-over requests over all measured cut-over requests
 * @param pauseP50Ms median pause
 * @param pauseP99Ms 99th percentile pause
 * @param pauseByCause the median pause and the count of each {@link CutoverCause}, the cause
 *     being that of the cut-over that ended the pause
 */
record CutoverFigures(Figure success, Figure pauseP50Ms, Figure pauseP99Ms, Figure pauseByCause) {

  static CutoverFigures of(final PolicyRun run) {
    final Set<String> cutOver = run.dispatches().stream().filter(Dispatch::isCutover).map(Dispatch::sequenceId)
        .collect(Collectors.toSet());
    final List<RequestOutcome> measured = run.measured().stream()
        .filter(o -> cutOver.contains(o.sequenceId())).toList();
    if (measured.isEmpty()) {
      final Figure none = Figure.na("no cut-over");
      return new CutoverFigures(none, none, none, none);
    }
    final long completed = measured.stream().filter(o -> o.status() == Status.COMPLETED).count();
    final Map<String, CutoverCause> causes = new HashMap<>();
    run.dispatches().stream().filter(Dispatch::isCutover)
        .forEach(d -> causes.put(d.sequenceId() + "@" + d.epoch(), CutoverCause.of(d.reason())));
    final List<Long> pauses = new ArrayList<>();
    final Map<CutoverCause, List<Long>> byCause = new EnumMap<>(CutoverCause.class);
    for (final RequestOutcome outcome : measured) {
      final Optional<Pause> pause = outcome.status() == Status.COMPLETED ? pause(outcome) : Optional.empty();
      pause.ifPresent(p -> pauses.add(p.ms()));
      pause.ifPresent(p -> byCause.computeIfAbsent(causes.getOrDefault(outcome.sequenceId() + "@" + p.epoch(),
          CutoverCause.OTHER), c -> new ArrayList<>()).add(p.ms()));
    }
    final Figure success = Figure.of((double) completed / measured.size(), Figure.format("%.1f %% of %d",
        100.0 * completed / measured.size(), measured.size()));
    if (pauses.isEmpty()) {
      final Figure none = Figure.na("every cut-over came before the first token");
      return new CutoverFigures(success, none, none, none);
    }
    final Percentiles p = new Percentiles(pauses);
    return new CutoverFigures(success, Figure.ms(p.at(50)), Figure.ms(p.at(99)), byCause(byCause));
  }

  /** For example {@code silent 1,310 (4); slow 420 (30)}: median pause, ms, and how many, per cause. */
  private static Figure byCause(final Map<CutoverCause, List<Long>> pauses) {
    return new Figure(OptionalDouble.empty(), pauses.entrySet().stream()
        .map(e -> Figure.format("%s %,d (%d)", e.getKey().label(), new Percentiles(e.getValue()).at(50),
            e.getValue().size()))
        .collect(Collectors.joining("; ")));
  }

  /**
   * The client's pause at a cut-over.
   *
   * @param ms from the last token of one attempt to the first of the next that sent any
   * @param epoch the attempt that ended the pause
   */
  record Pause(long ms, int epoch) {
  }

  /** The first pause of a request between two attempts that both sent tokens, if there was one. */
  static Optional<Pause> pause(final RequestOutcome outcome) {
    long lastNanos = Long.MIN_VALUE;
    int epoch = -1;
    for (final ChunkArrival chunk : outcome.chunks()) {
      if (chunk.tokens() == 0) {
        continue;
      }
      if (epoch >= 0 && chunk.epoch() > epoch) {
        return Optional.of(new Pause((chunk.atNanos() - lastNanos) / 1_000_000, chunk.epoch()));
      }
      epoch = chunk.epoch();
      lastNanos = chunk.atNanos();
    }
    return Optional.empty();
  }
}
