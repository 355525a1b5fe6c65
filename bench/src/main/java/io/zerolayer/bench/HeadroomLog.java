package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.Fleet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Samples which instances of the simulated fleet have room ({@code SimulatedGpu.hasRoom}) every
 * {@link #INTERVAL_MS} while a policy's load runs, so that a figure can tell a router that sent
 * work to a degraded instance while a healthy one had room from one that had nowhere else to send it.
 */
final class HeadroomLog implements AutoCloseable {

  static final long INTERVAL_MS = 50;

  private final Fleet fleet;
  private final List<Headroom> samples = new ArrayList<>();
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
    final Thread thread = new Thread(runnable, "bench-headroom");
    thread.setDaemon(true);
    return thread;
  });

  private HeadroomLog(final Fleet fleet) {
    this.fleet = requireNonNull(fleet, "fleet");
  }

  /** Samples from now on until closed. */
  static HeadroomLog start(final Fleet fleet) {
    final HeadroomLog log = new HeadroomLog(fleet);
    log.sampler.scheduleAtFixedRate(log::sample, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
    return log;
  }

  private void sample() {
    final Set<String> withRoom = fleet.instanceIds().stream().filter(id -> fleet.gpu(id).hasRoom())
        .collect(Collectors.toSet());
    final Headroom headroom = new Headroom(System.currentTimeMillis(), withRoom);
    synchronized (samples) {
      samples.add(headroom);
    }
  }

  /** The samples so far, oldest first. */
  List<Headroom> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public void close() throws InterruptedException {
    sampler.shutdownNow();
    sampler.awaitTermination(1, TimeUnit.SECONDS);
  }
}
