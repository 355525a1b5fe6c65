package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterRecordsTest {

  private final RouterRecords records = new RouterRecords("router-1");
  private final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("s1").setTenantId("acme")
      .setPrompt("hello").setMaxOutputTokens(16).setSubmittedAtMs(0).build();

  @Test
  void shouldTagAFirstDispatchWithHowItsInstanceWasChosenAndItsQueueEstimate() {
    final Decision chosen = new Decision(RoutingOutcome.FALLBACK, "gpu-2", "next best", 80.0, null)
        .predictingTtft(50.0, 30.0).expectingWarm();
    final RoutingDecision decided = records.decision(request, chosen, 1, "t-1", 100, 0, 7);

    final DispatchTask task = records.dispatch(request, decided, "hello", chosen, null);

    assertThat(task.getRouting()).isEqualTo(RoutingOutcome.FALLBACK);
    assertThat(task.getInstanceId()).isEqualTo("gpu-2");
    assertThat(task.getExpectsWarm()).isTrue();
    assertThat(task.getQueueEstimateMs()).isEqualTo(30.0);
  }

  @Test
  void shouldTagAResumedDispatchAsACutover() {
    final StallDetected stall = StallDetected.newBuilder().setSequenceId("s1").setEpoch(1).setInstanceId("gpu-1")
        .setNextIndex(2).setReason("no token for 1200 ms").setDetectedAtMs(200).setPrefix(List.of("a", "b"))
        .build();
    final Decision chosen = new Decision(RoutingOutcome.CUTOVER, "gpu-3", "resumed", 60.0, null)
        .predictingTtft(50.0, 30.0);
    final RoutingDecision decided = records.cutover(request, stall, chosen, 1, 300);

    final DispatchTask task = records.dispatch(request, decided, "hello", chosen, stall);

    assertThat(task.getRouting()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(task.getEpoch()).isEqualTo(2);
    assertThat(task.getResumeFromIndex()).isEqualTo(2);
    assertThat(task.getQueueEstimateMs()).as("a resumed attempt's wait is not its request's").isNull();
  }
}
