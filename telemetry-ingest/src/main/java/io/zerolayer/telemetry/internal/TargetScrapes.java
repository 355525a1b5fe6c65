package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.Optional;

/**
 * One round of scrapes of a target: its inference server, its host's exporters and the page of
 * the worker in front of the server, if any.
 */
public record TargetScrapes(Scrape engine, Optional<Scrape> gpu, Optional<Scrape> host, Optional<Scrape> worker) {

  public TargetScrapes {
    requireNonNull(engine, "engine");
    requireNonNull(gpu, "gpu");
    requireNonNull(host, "host");
    requireNonNull(worker, "worker");
  }
}
