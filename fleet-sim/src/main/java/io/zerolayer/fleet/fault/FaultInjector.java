package io.zerolayer.fleet.fault;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.SimulatedGpu;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects a {@link FaultSchedule} into a fleet, each entry at its offset from a start time, on
 * the injector's own thread. It logs each fault as it injects it and keeps what it injected,
 * with the times, for a benchmark to mark on its charts. Closing it cancels what is still due.
 */
public final class FaultInjector implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

  private final FaultTargets targets;
  private final FaultSchedule schedule;
  private final Clock clock;
  private final ScheduledExecutorService scheduler;
  private final List<AppliedFault> applied = new CopyOnWriteArrayList<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<List<AppliedFault>> done = new CompletableFuture<>();

  /** An injector into a running fleet, on the system clock. */
  public FaultInjector(final Fleet fleet, final FaultSchedule schedule) {
    this(FaultTargets.of(fleet), schedule, Clock.systemUTC());
  }

  /**
   * @param clock tells when each fault is due and when it was injected
   * @throws IllegalArgumentException naming the first entry whose target is not there (an unknown
   *     instance, or a zone no instance runs in)
   */
  public FaultInjector(final FaultTargets targets, final FaultSchedule schedule, final Clock clock) {
    this.targets = requireNonNull(targets, "targets");
    this.schedule = requireNonNull(schedule, "schedule");
    this.clock = requireNonNull(clock, "clock");
    schedule.entries().forEach(this::gpus);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread thread = new Thread(r, "fault-injector");
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Schedules every entry at {@code startAt} plus its offset; entries already due are injected at
   * once, in schedule order. Call it once.
   *
   * @return completes with every injected fault once the last one is injected
   */
  public CompletableFuture<List<AppliedFault>> start(final Instant startAt) {
    requireNonNull(startAt, "startAt");
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("This fault injector has already started");
    }
    if (schedule.isEmpty()) {
      done.complete(List.of());
      return done.copy();
    }
    LOG.info("Fault schedule from {}: {}", startAt, schedule);
    final Instant now = clock.instant();
    for (final ScheduledFault fault : schedule.entries()) {
      final long delayMs = Math.max(0, Duration.between(now, startAt.plus(fault.at())).toMillis());
      scheduler.schedule(() -> inject(fault, startAt), delayMs, TimeUnit.MILLISECONDS);
    }
    return done.copy();
  }

  /** The faults injected so far, in the order they were injected. */
  public List<AppliedFault> applied() {
    return List.copyOf(applied);
  }

  private void inject(final ScheduledFault fault, final Instant startAt) {
    try {
      final List<SimulatedGpu> gpus = gpus(fault);
      gpus.forEach(fault.kind()::applyTo);
      final Instant at = clock.instant();
      final AppliedFault record = new AppliedFault(fault, at, Duration.between(startAt, at),
          gpus.stream().map(SimulatedGpu::instanceId).toList());
      applied.add(record);
      LOG.info("Injected fault {}", record);
      if (applied.size() == schedule.entries().size()) {
        done.complete(applied());
      }
    } catch (final RuntimeException e) {
      LOG.error("Fault {} could not be injected", fault, e);
      done.completeExceptionally(e);
    }
  }

  private List<SimulatedGpu> gpus(final ScheduledFault fault) {
    final List<SimulatedGpu> gpus = fault.kind().zoneWide()
        ? targets.zone(fault.target())
        : targets.instance(fault.target()).map(List::of).orElse(List.of());
    if (gpus.isEmpty()) {
      throw new IllegalArgumentException("Fault schedule entry '" + fault + "' names "
          + (fault.kind().zoneWide() ? "a zone no instance runs in" : "no instance of this fleet") + ": "
          + fault.target());
    }
    return gpus;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    done.cancel(false);
  }
}
