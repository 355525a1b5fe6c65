package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.load.ClosedLoopLoad;
import io.zerolayer.fleet.load.LoadScheduler;
import io.zerolayer.fleet.load.OpenLoopLoad;
import io.zerolayer.fleet.load.RequestOutcome;
import io.zerolayer.fleet.load.RequestSender;
import io.zerolayer.fleet.load.RequestSource;
import io.zerolayer.fleet.load.TraceReplay;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The requests every policy is given, the same each time: closed-loop users stepped up over a
 * deterministic prompt mix, or a recorded trace replayed at its arrival times.
 */
public sealed interface Workload {

  /** A load under way. */
  record Running(CompletableFuture<List<RequestOutcome>> finished, Supplier<List<RequestOutcome>> outcomes,
      IntSupplier concurrency) {
  }

  /** How long requests are sent for. */
  Duration length();

  /** How long a request may take before it counts as an error. */
  Duration timeout();

  /** One line for the results' caption. */
  String describe();

  /** Starts sending, sequence ids {@code <idPrefix>-<index>}. */
  Running start(RequestSender sender, LoadScheduler scheduler, String idPrefix, PrintStream out);

  /** Users step up every {@code stepLength}; each thinks {@code think} between an answer and its next request. */
  record ClosedLoop(RequestSource source, List<Integer> usersPerStep, Duration stepLength, Duration think,
      Duration timeout) implements Workload {

    public ClosedLoop {
      requireNonNull(source, "source");
      usersPerStep = List.copyOf(usersPerStep);
      requireNonNull(stepLength, "stepLength");
      requireNonNull(think, "think");
      requireNonNull(timeout, "timeout");
    }

    @Override
    public Duration length() {
      return stepLength.multipliedBy(usersPerStep.size());
    }

    @Override
    public String describe() {
      return Figure.format("closed loop: users %s stepped up every %d s, %d ms think time, %d s timeout; %s",
          usersPerStep, stepLength.toSeconds(), think.toMillis(), timeout.toSeconds(), source.describe());
    }

    @Override
    public Running start(final RequestSender sender, final LoadScheduler scheduler, final String idPrefix,
        final PrintStream out) {
      final ClosedLoopLoad load = new ClosedLoopLoad(source, sender, scheduler,
          new ClosedLoopLoad.Settings(idPrefix, usersPerStep, stepLength, think, timeout), out);
      return new Running(load.start(), load::outcomes, load::users);
    }
  }

  /** The trace's requests at their (scaled) arrival times, whatever became of the earlier ones. */
  record Trace(TraceReplay replay, Duration timeout) implements Workload {

    public Trace {
      requireNonNull(replay, "replay");
      requireNonNull(timeout, "timeout");
    }

    @Override
    public Duration length() {
      final List<TraceReplay.Arrival> arrivals = replay.arrivals();
      return arrivals.isEmpty() ? Duration.ZERO : arrivals.get(arrivals.size() - 1).at();
    }

    @Override
    public String describe() {
      return "open loop, " + timeout.toSeconds() + " s timeout: " + replay.describe();
    }

    @Override
    public Running start(final RequestSender sender, final LoadScheduler scheduler, final String idPrefix,
        final PrintStream out) {
      final OpenLoopLoad load = OpenLoopLoad.replay(replay, sender, scheduler,
          new OpenLoopLoad.Settings(idPrefix, timeout), out);
      return new Running(load.start(), load::outcomes, load::inFlight);
    }
  }
}
