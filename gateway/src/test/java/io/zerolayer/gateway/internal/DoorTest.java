package io.zerolayer.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.ResponseChunk;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DoorTest {

  private final AtomicLong nowMs = new AtomicLong(1_000_000);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final Door door = new Door(Duration.ofMillis(500), new Door.Limits(2, 10), Duration.ofMillis(1_500),
      nowMs::get, meters);

  @Test
  void shouldRefuseAtOnceWithARetryTimeBeyondTheLimit() {
    final List<Door.Pass> open = enter(10);

    final Optional<Door.Pass> eleventh = door.enter();

    assertThat(open).hasSize(10);
    assertThat(eleventh).isEmpty();
    final Failure refusal = door.refusal();
    assertThat(refusal.kind()).isEqualTo(Failure.Kind.OVERLOADED);
    assertThat(refusal.retryAfterMs()).isEqualTo(1_500);
    assertThat(refusal.message()).contains("limit of 10 open answers", "later than 500 ms", "try again in 1500 ms");
    assertThat(meters.get("zerolayer.gateway.refused").counter().count()).isEqualTo(1);
  }

  @Test
  void shouldLowerTheLimitForEachAnswerTheLayerDeliveredLate() {
    final List<Door.Pass> open = enter(4);

    for (final Door.Pass pass : open) {
      pass.arrived(chunk(nowMs.get() - 800, true));
      pass.close();
    }

    // 10 * 0.9 = 9, 8.1 -> 8, 7.2 -> 7, 6.3 -> 6
    assertThat(limit()).isEqualTo(6);
    assertThat(enter(7)).hasSize(6);
    assertThat(meters.get("zerolayer.gateway.late.answers").counter().count()).isEqualTo(4);
  }

  @Test
  void shouldNotCountTheEnginesOwnPaceOnlyHowLateTheLayerDelivers() {
    final Door.Pass pass = door.enter().orElseThrow();

    // A slow engine: the stream takes ten seconds, but each chunk arrives 20 ms after it was emitted.
    for (int i = 0; i < 10; i++) {
      nowMs.addAndGet(1_000);
      pass.arrived(chunk(nowMs.get() - 20, i == 9));
    }
    pass.close();

    assertThat(limit()).isEqualTo(10);
    assertThat(meters.get("zerolayer.gateway.late.answers").counter().count()).isZero();
  }

  @Test
  void shouldCountAnAnswerLateThatAWorkerHadLongAfterItCame() {
    final Door.Pass waited = door.enter().orElseThrow();
    final Door.Pass prompt = door.enter().orElseThrow();

    // Requests waited 800 ms before a worker had the first, 30 ms for the second
    waited.started(nowMs.get() + 800);
    prompt.started(nowMs.get() + 30);
    nowMs.addAndGet(900);
    waited.arrived(chunk(nowMs.get() - 20, true));
    prompt.arrived(chunk(nowMs.get() - 20, true));
    waited.close();
    prompt.close();

    assertThat(meters.get("zerolayer.gateway.late.answers").counter().count()).isEqualTo(1);
    assertThat(limit()).isEqualTo(9);
  }

  @Test
  void shouldCountAnAnswerLateWhoseEndCameLongAfterItsLastToken() {
    final Door.Pass pass = door.enter().orElseThrow();
    for (int i = 0; i < 5; i++) {
      nowMs.addAndGet(20);
      pass.arrived(chunk(nowMs.get() - 5, false));
    }

    // token-buffer, far behind, writes the end only now: fresh by its own stamp, two seconds after the last token.
    nowMs.addAndGet(2_000);
    pass.arrived(ResponseChunk.newBuilder(chunk(nowMs.get() - 1, true)).setTokens(List.of()).build());
    pass.close();

    assertThat(meters.get("zerolayer.gateway.late.answers").counter().count()).isEqualTo(1);
    assertThat(limit()).isEqualTo(9);
  }

  @Test
  void shouldRaiseTheLimitAgainWithAnswersOnTimeWhileHalfOfItIsInUse() {
    enter(3).forEach(pass -> {
      pass.arrived(chunk(nowMs.get() - 900, true));
      pass.close();
    });
    assertThat(limit()).isEqualTo(7);

    final List<Door.Pass> busy = enter(7);
    busy.forEach(pass -> {
      pass.arrived(chunk(nowMs.get() - 10, true));
      pass.close();
    });

    assertThat(limit()).isGreaterThan(7);
  }

  @Test
  void shouldGiveThePlaceBackOnceWithoutAVerdictForAnAnswerThatNeverEnded() {
    final Door.Pass gone = door.enter().orElseThrow();
    gone.arrived(chunk(nowMs.get() - 10, false));

    gone.close();
    gone.close();

    assertThat(limit()).isEqualTo(10);
    assertThat(enter(11)).hasSize(10);
  }

  private List<Door.Pass> enter(final int count) {
    final List<Door.Pass> passes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      door.enter().ifPresent(passes::add);
    }
    return passes;
  }

  private int limit() {
    return (int) meters.get("zerolayer.gateway.open.limit").gauge().value();
  }

  private static ResponseChunk chunk(final long emittedAtMs, final boolean last) {
    return ResponseChunk.newBuilder().setSequenceId("s-1").setStartIndex(0).setTokens(List.of("a")).setLast(last)
        .setEmittedAtMs(emittedAtMs).build();
  }
}
