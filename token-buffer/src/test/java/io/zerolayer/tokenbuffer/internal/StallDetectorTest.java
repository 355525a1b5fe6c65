package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StallDetectorTest {

  private final StallDetector detector = new StallDetector(Duration.ofMillis(1200), Duration.ofMillis(3000),
      Duration.ofMillis(100));
  private final StallDetector.Window window = new StallDetector.Window(0);

  @Test
  void shouldJudgeNoSilenceWhileTokenBufferReadsLateButStillTheHeatmapsWord() {
    final SequenceState streaming = streaming(2, 20.0, 1_000);

    assertThat(detector.check(streaming, window, 5_000, null, false, true)).isNull();
    assertThat(detector.check(streaming, window, 5_000, "owner gpu-1 ejected by the heatmap", false, true))
        .isEqualTo("owner gpu-1 ejected by the heatmap");
  }

  @Test
  void shouldReportNoTokenWithinTheInstanceTimeout() {
    final SequenceState streaming = streaming(2, 20.0, 1_000);

    assertThat(detector.check(streaming, window, 2_200, null, false, false)).isNull();
    assertThat(detector.check(streaming, window, 2_201, null, false, false)).isEqualTo("no token within 1200 ms");
  }

  @Test
  void shouldGiveTheFirstTokenTheWholeStreamTimeout() {
    final SequenceState waiting = streaming(0, 0.0, 1_000);
    waiting.setAttemptTokens(0);

    assertThat(detector.check(waiting, window, 3_900, null, false, false)).isNull();
    assertThat(detector.check(waiting, window, 4_001, null, false, false))
        .startsWith("no first token and no word from the worker");
  }

  @Test
  void shouldNotStallAQueuedAttemptWhoseWorkerSaysItIsAlive() {
    final SequenceState queued = streaming(0, 0.0, 1_000);
    queued.setAttemptTokens(0);
    queued.setLastHeartbeatMs(3_500);

    assertThat(detector.check(queued, window, 6_000, null, false, false)).isNull();
    assertThat(detector.check(queued, window, 6_501, null, false, false)).isNotNull();
  }

  @Test
  void shouldReportAnAttemptQueuedPastHalfItsPredictionAgainAsQueued() {
    // Decided at 1 s with 8 s predicted to the first token: due at 9 s, allowance 4 s; the worker
    // keeps saying it is alive.
    final SequenceState queued = queued(9_000, 12_800);

    assertThat(detector.check(queued, window, 13_000, null, false, false)).isNull();
    assertThat(window.queued()).isFalse();
    assertThat(detector.check(queued, window, 13_001, null, false, false))
        .isEqualTo("queued: no first token 12001 ms after the decision, against 8000 ms predicted");
    assertThat(window.queued()).isTrue();
    assertThat(detector.check(queued, new StallDetector.Window(0), 13_001, "owner gpu-1 ejected by the heatmap",
        false, false)).isEqualTo("owner gpu-1 ejected by the heatmap");
  }

  @Test
  void shouldNotCallAnAttemptQueuedOnceItsWorkerStoppedSayingSo() {
    // The engine began its prefill at 11.5 s: the worker's heartbeats stopped.
    final SequenceState prefilling = queued(9_000, 11_500);

    assertThat(detector.check(prefilling, window, 13_001, null, false, false)).isNull();
  }

  @Test
  void shouldRepeatAQueuedReportOncePerInstanceTimeoutWithoutHoldingBackTheOtherRules() {
    final SequenceState queued = queued(9_000, 13_500);
    assertThat(detector.check(queued, window, 13_600, null, false, false)).startsWith("queued");
    window.reported(13_600);
    queued.setStallReportedEpoch(1);

    assertThat(detector.check(queued, window, 14_000, null, false, false)).isNull();
    assertThat(detector.check(queued, window, 14_000, "owner gpu-1 ejected by the heatmap", false, false))
        .isEqualTo("owner gpu-1 ejected by the heatmap");
    queued.setLastHeartbeatMs(14_500);
    assertThat(detector.check(queued, window, 14_801, null, false, false)).startsWith("queued");
  }

  @Test
  void shouldGiveAShortPredictionAtLeastTheWholeStreamTimeoutPastItsDueTime() {
    final SequenceState queued = queued(1_200, 4_000);

    assertThat(detector.check(queued, window, 4_200, null, false, false)).isNull();
    assertThat(detector.check(queued, window, 4_201, null, false, false)).startsWith("queued");
    queued.setFirstTokenDueMs(0);
    queued.setLastHeartbeatMs(59_800);
    assertThat(detector.check(queued, new StallDetector.Window(0), 60_000, null, false, false))
        .as("no prediction: a queued attempt whose worker speaks is never reported").isNull();
  }

  @Test
  void shouldReportARateDownMoreThan40PercentForThreeChecksInARow() {
    // 100 tokens/s is 10 per 100 ms check; 5 per check is a rate down 50 %
    detector.check(streaming(10, 100.0, 1_000), window, 1_000, null, false, false);

    assertThat(detector.check(streaming(15, 100.0, 1_100), window, 1_100, null, false, false)).isNull();
    assertThat(detector.check(streaming(20, 100.0, 1_200), window, 1_200, null, false, false)).isNull();
    assertThat(detector.check(streaming(25, 100.0, 1_300), window, 1_300, null, false, false))
        .contains("rate down more than 40%");
  }

  @Test
  void shouldMeasureABackupAgainstItsOwnPaceNotItsStalledPredecessorsLastCheck() {
    detector.check(streaming(10, 100.0, 1_000), window, 1_000, null, false, false);
    detector.check(streaming(15, 100.0, 1_100), window, 1_100, null, false, false);
    detector.check(streaming(20, 100.0, 1_200), window, 1_200, null, false, false);
    assertThat(detector.check(streaming(25, 100.0, 1_300), window, 1_300, null, false, false)).isNotNull();
    // The backup (epoch 2) sent its first token alone, then 4 more, between two checks: 5 tokens
    // since the predecessor's last check is half its pace, but the backup's first window.
    final SequenceState backup = streaming(30, 118.0, 1_480);
    backup.setEpoch(2);
    backup.setStreamEpoch(2);
    backup.setAttemptTokens(5);

    assertThat(detector.check(backup, window, 1_500, null, false, false)).isNull();
    assertThat(window.slowing()).isFalse();
  }

  @Test
  void shouldHoldTheRateRuleWhileTheFleetSlowedTogetherAndReportOnceItEnds() {
    detector.check(streaming(10, 100.0, 1_000), window, 1_000, null, false, false);
    detector.check(streaming(15, 100.0, 1_100), window, 1_100, null, false, false);
    detector.check(streaming(20, 100.0, 1_200), window, 1_200, null, true, false);

    assertThat(detector.check(streaming(25, 100.0, 1_300), window, 1_300, null, true, false))
        .as("no backup is faster when every instance slowed").isNull();
    assertThat(window.slowing()).isTrue();
    assertThat(detector.check(streaming(30, 100.0, 1_400), window, 1_400, null, false, false))
        .contains("rate down more than 40%");
  }

  @Test
  void shouldStillReportASilentStreamWhileTheFleetSlowed() {
    assertThat(detector.check(streaming(2, 20.0, 1_000), window, 2_201, null, true, false))
        .isEqualTo("no token within 1200 ms");
  }

  @Test
  void shouldCallAStreamStoppedAfterTwoChecksWithoutAToken() {
    final SequenceState streaming = streaming(10, 100.0, 1_000);
    final SequenceState unstarted = streaming(0, 0.0, 1_000);
    unstarted.setAttemptTokens(0);

    assertThat(detector.stopped(streaming, 1_199)).isFalse();
    assertThat(detector.stopped(streaming, 1_200)).isTrue();
    assertThat(detector.stopped(unstarted, 5_000)).as("it never started").isFalse();
  }

  @Test
  void shouldForgiveASlowCheckWhenTheNextIsBackToPace() {
    detector.check(streaming(10, 100.0, 1_000), window, 1_000, null, false, false);

    assertThat(detector.check(streaming(15, 100.0, 1_100), window, 1_100, null, false, false)).isNull();
    assertThat(detector.check(streaming(20, 100.0, 1_200), window, 1_200, null, false, false)).isNull();
    assertThat(detector.check(streaming(30, 100.0, 1_300), window, 1_300, null, false, false)).isNull();
    assertThat(detector.check(streaming(35, 100.0, 1_400), window, 1_400, null, false, false)).isNull();
  }

  @Test
  void shouldLeaveFinishedAndEndedSequencesAlone() {
    final SequenceState finished = streaming(2, 20.0, 0);
    finished.setStatus(SequenceStatus.FINISHED);
    final SequenceState ended = streaming(2, 20.0, 0);
    ended.setFinishReason("throttled");

    assertThat(detector.check(finished, window, 60_000, null, false, false)).isNull();
    assertThat(detector.check(ended, window, 60_000, null, false, false)).isNull();
  }

  @Test
  void shouldReportAStillStalledAttemptAgainOncePerInstanceTimeoutWhileNoNewAttemptIsDecided() {
    final SequenceState reported = streaming(2, 20.0, 0);
    reported.setStallReportedEpoch(1);
    window.reported(5_000);

    assertThat(detector.check(reported, window, 6_199, null, false, false)).isNull();
    assertThat(detector.check(reported, window, 6_200, null, false, false)).isEqualTo("no token within 1200 ms");
  }

  @Test
  void shouldTimeTheQuietOfAStartedAttemptFromItsLastTokenAndOfAWaitingOneFromItsWorkersWord() {
    final SequenceState started = streaming(2, 20.0, 1_000);
    started.setLastHeartbeatMs(1_500);
    final SequenceState waiting = streaming(0, 0.0, 1_000);
    waiting.setAttemptTokens(0);
    waiting.setLastHeartbeatMs(1_500);

    assertThat(StallDetector.quietMs(started, 4_000)).isEqualTo(3_000);
    assertThat(StallDetector.quietMs(waiting, 4_000)).isEqualTo(2_500);
  }

  /** An attempt decided at 1 s without a token yet, due at {@code dueMs}, last heard of at {@code heardMs}. */
  private static SequenceState queued(final long dueMs, final long heardMs) {
    final SequenceState queued = streaming(0, 0.0, 1_000);
    queued.setAttemptTokens(0);
    queued.setFirstTokenDueMs(dueMs);
    queued.setLastHeartbeatMs(heardMs);
    return queued;
  }

  private static SequenceState streaming(final int tokens, final double rate, final long lastProgressMs) {
    return SequenceState.newBuilder().setSequenceId("s").setEpoch(1).setOwner("gpu-1")
        .setStreamEpoch(1).setStreamOwner("gpu-1").setOutcome(RoutingOutcome.DIRECT).setTokenCount(tokens)
        .setAttemptTokens(tokens)
        .setStatus(SequenceStatus.STREAMING).setLastProgressMs(lastProgressMs).setRateTokensPerS(rate).build();
  }

  @Test
  void shouldTimeASilenceFromTheFirstCheckOfARestartedInstanceNotFromTheStoredProgress() {
    final SequenceState before = streaming(10, 100.0, 1_000);

    // Progress stored at 1 s; this instance, started after a crash, first checks it at 30 s.
    final StallDetector.Window fresh = new StallDetector.Window(30_000);

    assertThat(detector.check(before, fresh, 30_100, null, false, false)).isNull();
    assertThat(detector.check(before, fresh, 31_300, null, false, false)).isEqualTo("no token within 1200 ms");
  }

  @Test
  void shouldWatchAnotherRunOfTheDecidedEpochThatOwnsTheStreamInItsPlace() {
    final SequenceState adopted = streaming(10, 100.0, 1_000);
    adopted.setStreamOwner("gpu-2");

    assertThat(StallDetector.started(adopted)).isTrue();
    assertThat(StallDetector.watched(adopted)).isEqualTo("gpu-2");
    adopted.setStreamEpoch(0);
    assertThat(StallDetector.watched(adopted)).isEqualTo("gpu-1");
  }

  @Test
  void shouldReportAStreamingSequenceWhoseOwnerTheHeatmapEjectedAtOnce() {
    final StallDetector.Window window = new StallDetector.Window(0);
    final SequenceState streaming = streaming(10, 100.0, 1_000);

    assertThat(detector.check(streaming, window, 1_001, "owner gpu-1 ejected by the heatmap (fragmentation)", false, false))
        .isEqualTo("owner gpu-1 ejected by the heatmap (fragmentation)");
  }

}
