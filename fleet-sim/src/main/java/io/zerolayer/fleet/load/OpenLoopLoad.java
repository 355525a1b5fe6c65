package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An open-loop load: request i is sent at its scheduled time from the start, whether or not
 * earlier requests have been answered, as a trace recorded them. The load is finished when
 * every request has been sent and has its outcome (an answer, or a timeout counted as an
 * error). Runs once.
 */
public final class OpenLoopLoad {

  /**
   * How to load.
   *
   * @param idPrefix sequence ids are {@code <idPrefix>-<index>}; unique per run
   * @param timeout how long to wait for a request's final chunk before counting it as an error
   */
  public record Settings(String idPrefix, Duration timeout) {

    public Settings {
      requireNonNull(idPrefix, "idPrefix");
      requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + timeout);
      }
    }
  }

  private final RequestSource source;
  private final List<Duration> schedule;
  private final LoadScheduler scheduler;
  private final RequestRunner runner;
  private final PrintStream out;
  private final OutcomeLog log = new OutcomeLog();
  private long startNanos;
  private boolean started;

  /**
   * @param schedule when request i is due, from the start, for every request of the load
   */
  public OpenLoopLoad(final RequestSource source, final List<Duration> schedule, final RequestSender sender,
      final LoadScheduler scheduler, final Settings settings, final PrintStream out) {
    this.source = requireNonNull(source, "source");
    this.schedule = List.copyOf(schedule);
    this.scheduler = requireNonNull(scheduler, "scheduler");
    requireNonNull(settings, "settings");
    this.runner = new RequestRunner(sender, scheduler, settings.idPrefix(), settings.timeout());
    this.out = requireNonNull(out, "out");
  }

  /** The replay of a trace: its requests at its (scaled) times. */
  public static OpenLoopLoad replay(final TraceReplay trace, final RequestSender sender, final LoadScheduler scheduler,
      final Settings settings, final PrintStream out) {
    return new OpenLoopLoad(trace, trace.schedule(), sender, scheduler, settings, out);
  }

  /** Starts sending; the future completes with every outcome once the load is finished. */
  public synchronized CompletableFuture<List<RequestOutcome>> start() {
    if (started) {
      throw new IllegalStateException("A load runs once");
    }
    started = true;
    out.println("Open loop, " + schedule.size() + " requests at their scheduled times, timeout "
        + runner.timeout().toMillis() + " ms. " + source.describe());
    startNanos = scheduler.nanoTime();
    scheduleFrom(0);
    return log.finished();
  }

  /** Requests in flight now. */
  public int inFlight() {
    return log.inFlight();
  }

  /** The outcomes so far, in the order they ended. */
  public List<RequestOutcome> outcomes() {
    return log.outcomes();
  }

  /** One timer at a time: request i, once sent, schedules request i + 1. */
  private void scheduleFrom(final int index) {
    if (index >= schedule.size()) {
      log.close();
      return;
    }
    final long dueNanos = startNanos + schedule.get(index).toNanos();
    scheduler.schedule(() -> send(index), Duration.ofNanos(dueNanos - scheduler.nanoTime()));
  }

  private void send(final int index) {
    if (runner.runInto(log, source, index, log::inFlight).isPresent()) {
      scheduleFrom(index + 1);
    }
  }
}
