package io.zerolayer.it;

import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.deploy.stack.Pipeline;
import java.time.Duration;
import java.util.Collection;

/** Conditions the integration tests wait for. */
final class Awaits {

  private Awaits() {
  }

  /** Waits until the router's heatmap has a row with positive weight for each instance. */
  static void routerSees(final Pipeline pipeline, final Collection<String> instanceIds) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() ->
        instanceIds.stream().allMatch(id -> {
          final InstanceScore row = pipeline.routerHeatmap().row(id);
          return row != null && row.getWeight() > 0;
        }));
  }
}
