package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop load: each user sends a request, waits for its final chunk (or gives up after
 * a timeout, an error), thinks, and sends the next. The number of users steps up over time;
 * after the last step's time the users stop sending, and the load is finished when the last
 * request in flight has its outcome. A throttled user waits at least the retry-after it was
 * given before sending again, as a well-behaved client does. Runs once.
 */
public final class ClosedLoopLoad {

  /**
   * How to load.
   *
   * @param idPrefix sequence ids are {@code <idPrefix>-<index>}; unique per run
   * @param usersPerStep active users in each step, not decreasing (10, 20, 40)
   * @param stepLength how long each step lasts
   * @param think what a user waits between an answer and its next request
   * @param timeout how long a user waits for a final chunk before counting the request as an error
   */
  public record Settings(String idPrefix, List<Integer> usersPerStep, Duration stepLength, Duration think,
      Duration timeout) {

    public Settings {
      requireNonNull(idPrefix, "idPrefix");
      usersPerStep = List.copyOf(usersPerStep);
      if (usersPerStep.isEmpty() || usersPerStep.get(0) < 1) {
        throw new IllegalArgumentException("The first step needs at least one user, got " + usersPerStep);
      }
      for (int i = 1; i < usersPerStep.size(); i++) {
        if (usersPerStep.get(i) < usersPerStep.get(i - 1)) {
          throw new IllegalArgumentException("Users only step up, got " + usersPerStep);
        }
      }
      requirePositive(stepLength, "stepLength");
      requireNonNull(think, "think");
      requirePositive(timeout, "timeout");
    }
  }

  private final RequestSource source;
  private final LoadScheduler scheduler;
  private final Settings settings;
  private final RequestRunner runner;
  private final PrintStream out;
  private final OutcomeLog log = new OutcomeLog();
  private final AtomicLong nextIndex = new AtomicLong();
  private int users;
  private boolean started;

  public ClosedLoopLoad(final RequestSource source, final RequestSender sender, final LoadScheduler scheduler,
      final Settings settings, final PrintStream out) {
    this.source = requireNonNull(source, "source");
    this.scheduler = requireNonNull(scheduler, "scheduler");
    this.settings = requireNonNull(settings, "settings");
    this.runner = new RequestRunner(sender, scheduler, settings.idPrefix(), settings.timeout());
    this.out = requireNonNull(out, "out");
  }

  /** Starts the users; the future completes with every outcome once the load is finished. */
  public synchronized CompletableFuture<List<RequestOutcome>> start() {
    if (started) {
      throw new IllegalStateException("A load runs once");
    }
    started = true;
    out.printf("Closed loop, users %s stepped every %.1f s, think %d ms, timeout %d ms. %s%n",
        settings.usersPerStep(), settings.stepLength().toMillis() / 1000.0, settings.think().toMillis(),
        settings.timeout().toMillis(), source.describe());
    final List<Integer> steps = settings.usersPerStep();
    for (int step = 0; step < steps.size(); step++) {
      final int target = steps.get(step);
      scheduler.schedule(() -> raiseUsersTo(target), settings.stepLength().multipliedBy(step));
    }
    scheduler.schedule(log::close, settings.stepLength().multipliedBy(steps.size()));
    return log.finished();
  }

  /** Users started so far. */
  public synchronized int users() {
    return users;
  }

  /** The outcomes so far, in the order they ended. */
  public List<RequestOutcome> outcomes() {
    return log.outcomes();
  }

  private void raiseUsersTo(final int target) {
    final int from;
    synchronized (this) {
      from = users;
      users = Math.max(users, target);
    }
    for (int user = from; user < target; user++) {
      sendNext();
    }
  }

  private void sendNext() {
    if (log.isClosed()) {
      return;
    }
    runner.runInto(log, source, nextIndex.getAndIncrement(), this::users)
        .ifPresent(sent -> sent.thenAccept(outcome -> scheduler.schedule(this::sendNext, pause(outcome))));
  }

  private Duration pause(final RequestOutcome outcome) {
    if (outcome.isThrottled() && outcome.retryAfterMs() != null) {
      final Duration retryAfter = Duration.ofMillis(outcome.retryAfterMs());
      return retryAfter.compareTo(settings.think()) > 0 ? retryAfter : settings.think();
    }
    return settings.think();
  }

  private static void requirePositive(final Duration duration, final String name) {
    requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + duration);
    }
  }
}
