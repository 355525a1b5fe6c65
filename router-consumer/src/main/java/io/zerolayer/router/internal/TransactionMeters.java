package io.zerolayer.router.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zerolayer.router.RouterMeterNames;
import java.util.concurrent.TimeUnit;

/** How long a router's transactions take (routing each poll's records in one, then committing it), and how many abort. */
public final class TransactionMeters {

  private final Timer route;
  private final Timer commit;
  private final DistributionSummary size;
  private final Counter aborted;

  public TransactionMeters(final MeterRegistry registry) {
    route = Timer.builder(RouterMeterNames.TRANSACTION_ROUTE).description("Routing one poll's records inside a transaction")
        .publishPercentiles(0.5, 0.99).register(registry);
    commit = Timer.builder(RouterMeterNames.TRANSACTION_COMMIT).description("Committing a transaction: its last records, its offsets and the commit")
        .publishPercentiles(0.5, 0.99).register(registry);
    size = DistributionSummary.builder("zerolayer.router.transaction.records")
        .description("Records routed in one transaction").register(registry);
    aborted = Counter.builder("zerolayer.router.transaction.aborted")
        .description("Transactions aborted, their records read again").register(registry);
  }

  public void routed(final long routeNanos) {
    route.record(routeNanos, TimeUnit.NANOSECONDS);
  }

  public void committed(final int records, final long commitNanos) {
    commit.record(commitNanos, TimeUnit.NANOSECONDS);
    size.record(records);
  }

  public void aborted() {
    aborted.increment();
  }
}
