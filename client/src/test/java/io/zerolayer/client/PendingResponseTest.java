package io.zerolayer.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingResponseTest {

  private final List<ResponseChunk> passed = new ArrayList<>();
  private final List<Long> started = new ArrayList<>();
  private final PendingResponse pending = new PendingResponse("s", passed::add, started::add);

  @Test
  void shouldTakeOnlyTheChunksOfItsOwnRequestOnceItsPlaceIsKnown() throws Exception {
    pending.placed(1, 11);

    // Another request's stream under the same sequence id, and this request's refusal
    pending.fromWorker(worker(10, "a", "b"));
    assertThat(pending.fromDurable(durable(10, 0, false, null, "a", "b"))).isFalse();
    assertThat(pending.fromDurable(durable(11, 0, true, RoutingOutcome.REJECTED))).isTrue();

    assertThat(passed).extracting(ResponseChunk::getTokens).containsExactly(List.of());
    assertThat(pending.future().get().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(pending.future().get().text()).isEmpty();
  }

  @Test
  void shouldHoldBackAnotherRequestsChunksReadBeforeItsOwnPlaceIsKnown() throws Exception {
    // The live stream's chunks come before the producer acknowledged this request's record
    pending.fromWorker(worker(10, "a", "b"));
    assertThat(pending.fromDurable(durable(10, 8, false, null, "i", "j"))).isFalse();
    pending.placed(1, 11);

    assertThat(pending.releaseHeld()).isFalse();
    assertThat(pending.fromDurable(durable(11, 0, true, RoutingOutcome.REJECTED))).isTrue();
    assertThat(passed).extracting(ResponseChunk::getTokens).containsExactly(List.of());
    assertThat(pending.future().get().outcome()).isEqualTo(RoutingOutcome.REJECTED);
  }

  @Test
  void shouldPassItsOwnChunksHeldBackOnceItsPlaceIsKnown() throws Exception {
    pending.fromWorker(worker(10, "a"));
    assertThat(pending.fromDurable(durable(10, 0, true, RoutingOutcome.DIRECT, "a"))).isFalse();
    pending.placed(1, 10);

    assertThat(pending.releaseHeld()).isTrue();
    assertThat(pending.future().get().text()).isEqualTo("a");
  }

  @Test
  void shouldTellOnceWhenAWorkerFirstWroteForItsOwnRequest() {
    pending.placed(1, 11);
    final TokenChunk otherRequests = worker(10);
    otherRequests.setEmittedAtMs(500);
    final TokenChunk claim = worker(11);
    claim.setEmittedAtMs(700);
    final TokenChunk first = worker(11, "a");
    first.setEmittedAtMs(900);

    pending.fromWorker(otherRequests);
    pending.fromWorker(claim);
    pending.fromWorker(first);

    assertThat(started).containsExactly(700L);
  }

  @Test
  void shouldTellTheEndOnceAsSoonAsTheEngineFinishedAndCompleteOnTheDurableStream() throws Exception {
    pending.placed(1, 10);
    pending.fromWorker(worker(10, "a"));
    final TokenChunk finish = worker(10, "b");
    finish.setStartIndex(1);
    finish.setLast(true);
    finish.setRouting(RoutingOutcome.DIRECT);
    pending.fromWorker(finish);

    assertThat(passed).extracting(ResponseChunk::getLast).containsExactly(false, true);
    assertThat(pending.future()).isNotDone();

    assertThat(pending.fromDurable(durable(10, 0, true, RoutingOutcome.DIRECT, "a", "b"))).isTrue();
    assertThat(passed).as("the durable end is not told again").hasSize(2);
    assertThat(pending.future().get().text()).isEqualTo("ab");
  }

  private static TokenChunk worker(final long requestOffset, final String... tokens) {
    return TokenChunk.newBuilder().setSequenceId("s").setEpoch(1).setInstanceId("gpu-1").setAttemptId("run-1")
        .setStartIndex(0).setTokens(List.of(tokens)).setRequestPartition(1).setRequestOffset(requestOffset)
        .setEmittedAtMs(0).build();
  }

  private static ResponseChunk durable(final long requestOffset, final int start, final boolean last,
      final RoutingOutcome outcome, final String... tokens) {
    return ResponseChunk.newBuilder().setSequenceId("s").setStartIndex(start).setTokens(List.of(tokens))
        .setLast(last).setOutcome(outcome).setEpoch(outcome == RoutingOutcome.REJECTED ? 0 : 1)
        .setInstanceId(outcome == RoutingOutcome.REJECTED ? null : "gpu-1").setRequestPartition(1)
        .setRequestOffset(requestOffset).setEmittedAtMs(0).build();
  }
}
