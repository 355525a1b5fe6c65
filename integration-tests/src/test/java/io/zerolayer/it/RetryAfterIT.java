package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class RetryAfterIT {

  /**
   * One request every 5 s, no burst beyond it: the first request's whole answer must come back
   * within that time for the next to find the bucket still empty, which one second did not always
   * allow on a loaded machine.
   */
  private static final Tenant SLOW = new Tenant("slow", Tenant.hashKey("slow-key"), 0.2, 1_000_000, 5);

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldServeAClientThatRetriesAfterRetryAfterAndThrottleOneThatRetriesEarly(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .tenants(TenantDirectory.of(List.of(SLOW))).start()) {
      final InferenceClient client = rig.client();

      // Given a tenant that just spent its one request of these 5 s
      assertThat(ask(client, "first").outcome()).isEqualTo(RoutingOutcome.DIRECT);

      // When it asks again at once, it is throttled with a Retry-After under 5 s
      final Response throttled = ask(client, "second");
      final long answeredAt = System.nanoTime();
      assertThat(throttled.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
      final long retryAfterMs = throttled.last().getRetryAfterMs();
      assertThat(retryAfterMs).isBetween(1L, 5_000L);

      // Then retrying well before Retry-After is throttled again
      assertThat(ask(client, "too-early").outcome()).isEqualTo(RoutingOutcome.THROTTLED);

      // And retrying once Retry-After has passed is served
      final long dueNanos = answeredAt + TimeUnit.MILLISECONDS.toNanos(retryAfterMs);
      TimeUnit.NANOSECONDS.sleep(Math.max(0, dueNanos - System.nanoTime()));
      assertThat(ask(client, "on-time").outcome()).isEqualTo(RoutingOutcome.DIRECT);
    }
  }

  private static Response ask(final InferenceClient client, final String sequenceId) throws Exception {
    return client.submit(InferenceRequest.newBuilder().setSequenceId(sequenceId).setTenantId(SLOW.id())
        .setApiKey("slow-key").setPrompt("Hello").setMaxOutputTokens(4).setSubmittedAtMs(System.currentTimeMillis())
        .build()).get(60, TimeUnit.SECONDS);
  }
}
