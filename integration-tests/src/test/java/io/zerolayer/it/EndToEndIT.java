package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.DecisionLog;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class EndToEndIT {

  private static final int REQUESTS = 200;
  private static final int MAX_OUTPUT_TOKENS = 24;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldAnswerEveryRequestCompletelyInOrderWithItsDecision(final TestCluster.Handle cluster) throws Exception {
    // Given the whole pipeline on the real broker and registry, and a fleet of three instances
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a", "zone-b"), GpuProfile.standard())
        .start()) {
      final DecisionLog decisions = rig.decisions();
      final RecordCollector<String, ResponseChunk> responses = rig.responses();
      final InferenceClient client = rig.client();

      // When 200 requests are published
      final List<InferenceRequest> requests = IntStream.range(0, REQUESTS).mapToObj(EndToEndIT::request).toList();
      final List<CompletableFuture<Response>> futures = new ArrayList<>();
      requests.forEach(request -> futures.add(client.submit(request)));

      // Then every one gets its complete, ordered text and a final chunk with the outcome
      for (int i = 0; i < REQUESTS; i++) {
        final InferenceRequest request = requests.get(i);
        final Response response = answer(futures.get(i), request.getSequenceId(), responses);
        final String decided = decisions.describe(request.getSequenceId());
        if (response.outcome() == RoutingOutcome.THROTTLED) {
          // A cut-over that found every other instance out of service, as this busy machine can make
          // them for a moment: the text up to there, no token lost or repeated, and a Retry-After.
          assertThat(ExpectedText.of(request)).as("throttled %s, decisions %s", request.getSequenceId(), decided)
              .startsWith(response.text());
          assertThat(response.last().getRetryAfterMs()).isPositive();
          continue;
        }
        assertThat(response.text()).as("%s ended %s, decisions %s", request.getSequenceId(), response.outcome(),
            decided).isEqualTo(ExpectedText.of(request));
        // DIRECT, or CUTOVER when the busy machine slowed an attempt past the stall rules
        assertThat(response.outcome()).isIn(RoutingOutcome.DIRECT, RoutingOutcome.CUTOVER);
        assertThat(response.last().getFinishReason()).isIn("stop", "length");
        assertThat(rig.fleet().instanceIds()).contains(response.last().getInstanceId());
      }
      // And its decisions on the decision topic: one routing decision, then one per cut-over, if any
      // (the last a throttle when no other instance could take the sequence)
      final Map<String, List<RoutingDecision>> recorded = decisions.awaitFor(
          requests.stream().map(InferenceRequest::getSequenceId).toList(), Duration.ofSeconds(60));
      assertThat(recorded).hasSize(REQUESTS);
      assertThat(recorded.values()).allSatisfy(list -> {
        assertThat(list.get(0).getEpoch()).isEqualTo(1);
        assertThat(list.get(0).getOutcome()).isEqualTo(RoutingOutcome.DIRECT);
        assertThat(list.get(0).getPredictedLatencyMs()).isPositive();
        assertThat(list.subList(1, list.size())).allMatch(d -> d.getOutcome() == RoutingOutcome.CUTOVER
            || d.getOutcome() == RoutingOutcome.THROTTLED && d == list.get(list.size() - 1));
        assertThat(list).extracting(RoutingDecision::getEpoch).doesNotHaveDuplicates();
      });
    }
  }

  /** The response, or a failure that shows every chunk the response topic holds for the sequence. */
  private static Response answer(final CompletableFuture<Response> future, final String sequenceId,
      final RecordCollector<String, ResponseChunk> responses) throws Exception {
    try {
      return future.get(3, TimeUnit.MINUTES);
    } catch (final ExecutionException e) {
      throw new AssertionError(e.getCause().getMessage() + "; chunks on the response topic: " + responses.records()
          .stream().filter(r -> r.key().equals(sequenceId))
          .map(r -> r.partition() + "@" + r.offset() + " " + r.value()).toList(), e);
    }
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder()
        .setSequenceId("e2e-" + i)
        .setTenantId("tenant-" + (i % 3))
        .setApiKey(TestTenants.key("tenant-" + (i % 3)))
        .setPrompt("Request number " + i + ": tell me about routing.")
        .setMaxOutputTokens(MAX_OUTPUT_TOKENS)
        .setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }
}
