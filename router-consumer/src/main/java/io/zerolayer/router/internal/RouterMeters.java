package io.zerolayer.router.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zerolayer.contract.avro.RoutingOutcome;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/** The router's own meters. */
public final class RouterMeters {

  private final Map<RoutingOutcome, Counter> decisions = new EnumMap<>(RoutingOutcome.class);
  private final Counter deadLettered;
  private final Counter waited;
  private final Counter prefixEvents;
  private final Timer decisionTime;

  public RouterMeters(final MeterRegistry registry) {
    for (final RoutingOutcome outcome : RoutingOutcome.values()) {
      decisions.put(outcome, Counter.builder("zerolayer.router.decisions")
          .description("Routing decisions, by outcome")
          .tag("outcome", outcome.name().toLowerCase())
          .register(registry));
    }
    deadLettered = Counter.builder("zerolayer.router.dead.lettered")
        .description("Input records the router could not read, sent to the dead-letter topic")
        .register(registry);
    waited = Counter.builder("zerolayer.router.stalls.waiting")
        .description("Stall reports of sequences no other instance could take yet, left where they are")
        .register(registry);
    prefixEvents = Counter.builder("zerolayer.router.prefix.events")
        .description("Prefix-cache events of the instances applied to the router's index")
        .register(registry);
    decisionTime = Timer.builder("zerolayer.router.decision.time")
        .description("From a request's record timestamp to its decision")
        .publishPercentiles(0.5, 0.99)
        .register(registry);
  }

  void decided(final RoutingOutcome outcome, final long requestTimestampMs, final long nowMs) {
    decisions.get(outcome).increment();
    decisionTime.record(Duration.ofMillis(Math.max(0, nowMs - requestTimestampMs)));
  }

  void waited() {
    waited.increment();
  }

  /** Counts an instance's prefix-cache event applied to the index. */
  public void prefixEvent() {
    prefixEvents.increment();
  }

  void deadLettered() {
    deadLettered.increment();
  }
}
