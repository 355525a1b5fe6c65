package io.zerolayer.bench;

import io.zerolayer.fleet.fault.AppliedFault;
import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An instance started cold (a {@code cold} fault, else one the fleet started cold): the latency
 * of the first new request sent to it after that, against the median latency of the completed
 * requests of about its length (output tokens within {@link #LENGTH_TOLERANCE}) that other
 * instances served, sent within {@link #NEIGHBOURHOOD_MS} of it. While fewer than
 * {@link #MIN_LIKE_REQUESTS} near it are of its length (a long first request: long ones are
 * rare), those of the whole measured run are; while there are still too few, requests of every
 * length near it. The value is the ratio.
 */
final class ColdStartFigure {

  static final long NEIGHBOURHOOD_MS = 10_000;
  static final double LENGTH_TOLERANCE = 0.25;
  static final int MIN_LIKE_REQUESTS = 5;

  private record ColdStart(String instanceId, long atMs) {
  }

  private ColdStartFigure() {
  }

  static Figure of(final PolicyRun run) {
    final Optional<ColdStart> cold = coldStart(run);
    if (cold.isEmpty()) {
      return Figure.na("no cold start");
    }
    final String instance = cold.get().instanceId();
    final Optional<Dispatch> first = run.dispatches().stream()
        .filter(d -> d.instanceId().equals(instance) && d.epoch() == 1 && d.atMs() >= cold.get().atMs())
        .min(Comparator.comparingLong(Dispatch::atMs));
    final RequestOutcome request = first.map(d -> run.bySequence().get(d.sequenceId())).orElse(null);
    if (request == null) {
      return Figure.na("no new request was sent to " + instance + " after its cold start");
    }
    return compared(run, instance, request);
  }

  /** The first request against warm ones, of about its length where there are enough. */
  private static Figure compared(final PolicyRun run, final String instance, final RequestOutcome request) {
    final long sent = run.sentMs(request);
    final List<RequestOutcome> warmAnywhere = run.measured().stream()
        .filter(o -> o.status() == Status.COMPLETED && !o.instances().contains(instance))
        .toList();
    final List<RequestOutcome> warm = warmAnywhere.stream()
        .filter(o -> Math.abs(run.sentMs(o) - sent) <= NEIGHBOURHOOD_MS)
        .toList();
    if (warm.isEmpty()) {
      return Figure.na("no request completed on a warm instance near it");
    }
    List<RequestOutcome> like = ofItsLength(warm, request);
    String scope = "of about its length";
    if (like.size() < MIN_LIKE_REQUESTS) {
      like = ofItsLength(warmAnywhere, request);
      scope = "of about its length in the whole run";
    }
    final boolean byLength = request.status() == Status.COMPLETED && like.size() >= MIN_LIKE_REQUESTS;
    final long median = medianMs(byLength ? like : warm);
    if (request.status() != Status.COMPLETED) {
      return Figure.never(Figure.format("first request %s; warm median %,d ms",
          request.status().name().toLowerCase(Locale.ROOT).replace('_', ' '), median));
    }
    final long latency = request.latency().toMillis();
    final double ratio = (double) latency / median;
    final String compared = Figure.format("%,d ms (%,d tokens) vs warm median %,d ms of %s (%.2fx)", latency,
        request.outputTokens(), median, byLength ? like.size() + " requests " + scope
            : warm.size() + " requests", ratio);
    return Figure.of(ratio, byLength ? compared + allLengths(latency, warm) : compared);
  }

  private static List<RequestOutcome> ofItsLength(final List<RequestOutcome> warm, final RequestOutcome request) {
    return warm.stream()
        .filter(o -> Math.abs(o.outputTokens() - request.outputTokens())
            <= LENGTH_TOLERANCE * Math.max(1, request.outputTokens()))
        .toList();
  }

  /** The comparison with the warm median of every length, which a short first request passes more easily. */
  private static String allLengths(final long latency, final List<RequestOutcome> warm) {
    final long median = medianMs(warm);
    return Figure.format("; warm median of all %d: %,d ms (%.2fx)", warm.size(), median, (double) latency / median);
  }

  private static long medianMs(final List<RequestOutcome> requests) {
    return new Percentiles(requests.stream().map(o -> o.latency().toMillis()).toList()).at(50);
  }

  private static Optional<ColdStart> coldStart(final PolicyRun run) {
    final List<ColdStart> starts = new ArrayList<>();
    for (final AppliedFault fault : run.faults()) {
      if (fault.fault().kind() == FaultKind.COLD) {
        starts.add(new ColdStart(fault.instanceIds().get(0), fault.appliedAt().toEpochMilli()));
      }
    }
    run.coldIds().stream().sorted().forEach(id -> starts.add(new ColdStart(id, run.loadStartMs())));
    return starts.stream().findFirst();
  }
}
