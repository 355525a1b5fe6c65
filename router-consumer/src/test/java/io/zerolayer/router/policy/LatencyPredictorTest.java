package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyPredictorTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 200, 100);

  @Test
  void shouldUseTheAverageCostPerOutputTokenWhileTheDecodeStepIsUnknown() {
    // 40 + 0.1 * 200 + 20 * 100
    assertThat(LatencyPredictor.serviceMs(loaded("a", 7, 0), REQUEST)).isCloseTo(2_060.0, within(1e-9));
    assertThat(LatencyPredictor.serviceMs(loaded("b", 0, 0), REQUEST)).isCloseTo(2_060.0, within(1e-9));
  }

  @Test
  void shouldPredictASlowerDecodeOnABusierBatchOnceTheStepIsFitted() {
    final InstanceScore idle = withDecodeStep(loaded("idle", 0, 0), 8, 0.5);
    final InstanceScore busy = withDecodeStep(loaded("busy", 9, 0), 8, 0.5);

    // TTFT 40 + 0.1 * 200, then 100 steps of 8 + 0.5 * (running + this request)
    assertThat(LatencyPredictor.serviceMs(idle, REQUEST)).isCloseTo(60 + 100 * 8.5, within(1e-9));
    assertThat(LatencyPredictor.serviceMs(busy, REQUEST)).isCloseTo(60 + 100 * 13.0, within(1e-9));
  }

  @Test
  void shouldCountTheDecodeOfTheFirstChunkOnceWhereTheTtftModelHoldsIt() {
    final InstanceScore fourAtOnce = withDecodeStep(loaded("a", 0, 0), 8, 0.5);
    fourAtOnce.getLatencyModel().setFirstChunkTokens(4.0);
    final RequestProfile short3 = new RequestProfile("seq-2", 200, 3);

    // TTFT 40 + 0.1 * 200, which holds the first 4 tokens' decode; then 96 steps of 8.5
    assertThat(LatencyPredictor.serviceMs(fourAtOnce, REQUEST)).isCloseTo(60 + 96 * 8.5, within(1e-9));
    assertThat(LatencyPredictor.serviceMs(fourAtOnce, short3)).as("all in its first chunk")
        .isCloseTo(60, within(1e-9));
  }

  @Test
  void shouldExpectTheShareOfItsLimitRequestsHaveUsedAndThePromptTheCacheDoesNotHold() {
    final InstanceScore row = loaded("a", 0, 0);
    row.getLatencyModel().setExpectedOutputShare(0.75);
    final RequestProfile halfCached = new RequestProfile("seq-1", 200, 100, new PrefixMatch() {
      @Override
      public int blocks() {
        return 4;
      }

      @Override
      public int heldBlocks(final String instanceId) {
        return 2;
      }

      @Override
      public int cachedTokens(final String instanceId) {
        return 100;
      }
    });

    // 40 + 0.1 * (200 - 100 cached) + 20 * 75 expected of the 100 allowed
    assertThat(LatencyPredictor.serviceMs(row, halfCached)).isCloseTo(1_550.0, within(1e-9));
  }

  @Test
  void shouldExpectTheWholeLimitOfARequestThatIgnoresTheEndOfSequence() {
    final InstanceScore row = loaded("a", 0, 0);
    row.getLatencyModel().setExpectedOutputShare(0.75);
    final RequestProfile exact = new RequestProfile("seq-1", 200, 100, true, PrefixMatch.NONE, null);

    // 40 + 0.1 * 200 + 20 * 100: all 100 tokens, whatever share others use
    assertThat(LatencyPredictor.serviceMs(row, exact)).isCloseTo(2_060.0, within(1e-9));
  }

  @Test
  void shouldWaitBehindAQueueForAsManyRequestsToFinishAndOneMoreOfTheInstancesUsualShape() {
    final InstanceScore queued = loaded("a", 4, 3);
    assertThat(LatencyPredictor.queueWaitMs(queued)).as("a typical request: 256 prompt and 128 output tokens")
        .isCloseTo(4 * (40 + 0.1 * 256 + 20 * 128) / 4.0, within(1e-9));

    queued.getLatencyModel().setMeanInputTokens(100.0);
    queued.getLatencyModel().setMeanOutputTokens(50.0);

    // 3 queued and this one, each a slot of 4 freeing after 40 + 0.1 * 100 + 20 * 50 ms
    assertThat(LatencyPredictor.queueWaitMs(queued)).isCloseTo(4 * 1_050 / 4.0, within(1e-9));
    assertThat(LatencyPredictor.queueWaitMs(loaded("b", 4, 0))).isZero();
  }

  @Test
  void shouldWaitForOneRequestToFinishWhenEverySlotOfTheBatchIsTakenThoughNothingQueues() {
    final InstanceScore full = loaded("a", 4, 0);
    full.getLatencyModel().setMeanInputTokens(100.0);
    full.getLatencyModel().setMeanOutputTokens(50.0);
    assertThat(LatencyPredictor.queueWaitMs(full)).as("batch size not known yet").isZero();

    full.setBatchSlots(4);

    // A slot of 4 frees after 40 + 0.1 * 100 + 20 * 50 ms on average
    assertThat(LatencyPredictor.queueWaitMs(full)).isCloseTo(1_050 / 4.0, within(1e-9));
    full.setBatchSlots(8);
    assertThat(LatencyPredictor.queueWaitMs(full)).as("free slots left").isZero();
  }

  @Test
  void shouldWaitForTheSoonestOfItsOwnRequestsToEndWhenOneBurstOfThemFilledTheBatch() {
    final InstanceScore full = usual("a", 4, 0);
    full.setBatchSlots(4);
    final Heatmap unknown = Rows.heatmap(full);
    final Heatmap burst = unknown.withOwnWork(id -> new OwnWork(new double[] {1_040, 900, 1_000, 950},
        new double[0]), Rows.NOW_MS);

    assertThat(LatencyPredictor.queueEstimateMs(unknown, "a")).as("one of 4 ends every 1,050 / 4 ms")
        .isCloseTo(1_050 / 4.0, within(1e-9));
    assertThat(LatencyPredictor.queueEstimateMs(burst, "a")).as("none ends before 900 ms")
        .isCloseTo(900.0, within(1e-9));
    assertThat(LatencyPredictor.ttftMs(burst, "a", REQUEST) - LatencyPredictor.ttftMs(unknown, "a", REQUEST))
        .isCloseTo(900 - 1_050 / 4.0, within(1e-9));
  }

  @Test
  void shouldLetItsOwnQueuedRequestsTakeTheFirstSlotsThatFreeForTheirOwnService() {
    final InstanceScore queued = usual("a", 2, 1);
    final Heatmap heatmap = Rows.heatmap(queued).withOwnWork(id -> new OwnWork(new double[] {300, 700},
        new double[] {500}), Rows.NOW_MS);

    // The queued one takes the slot freeing at 300 until 800; this request the one at 700.
    assertThat(LatencyPredictor.queueEstimateMs(heatmap, "a")).isCloseTo(700.0, within(1e-9));
  }

  @Test
  void shouldSpreadTheRequestsItDoesNotKnowEvenlyOverTheUsualService() {
    final InstanceScore queued = usual("a", 4, 1);
    final Heatmap heatmap = Rows.heatmap(queued).withOwnWork(id -> new OwnWork(new double[] {1_000, 1_040},
        new double[0]), Rows.NOW_MS);

    // Two others end at 1,050 / 2 and 1,050 ms; the queued other takes the first, this request the second.
    assertThat(LatencyPredictor.queueEstimateMs(heatmap, "a")).isCloseTo(1_000.0, within(1e-9));
  }

  @Test
  void shouldFreeSlotsAsTheTokensTheInstanceReportsItsRequestsMayStillGenerateRunOut() {
    final InstanceScore full = withDecodeStep(usual("a", 4, 1), 8, 0.5);
    full.setBatchSlots(4);
    full.setRunningTokensToLimit(List.of(100, 20, 60, 300));
    full.setLastTelemetryMs(Rows.NOW_MS - 50);
    final OwnWork misleading = new OwnWork(new double[] {5_000, 5_000, 5_000, 5_000}, new double[0]);

    // A step of 8 + 0.5 * 4 = 10 ms: the slots free 1,000, 200, 600 and 3,000 ms after the sample,
    // 50 ms ago. The queued request takes the one at 150; this one the one at 550.
    assertThat(LatencyPredictor.queueEstimateMs(Rows.heatmap(full).withOwnWork(id -> misleading, Rows.NOW_MS), "a"))
        .as("the instance's report, not this router's expectations").isCloseTo(550.0, within(1e-9));
    assertThat(LatencyPredictor.queueEstimateMs(Rows.heatmap(full), "a")).as("a snapshot naming no moment")
        .isCloseTo(600.0, within(1e-9));
    full.setQueueLength(0);
    full.setRunningRequests(3);
    full.setRunningTokensToLimit(List.of(100, 20, 60));
    assertThat(LatencyPredictor.queueEstimateMs(Rows.heatmap(full), "a")).as("a free slot").isZero();
  }

  @Test
  void shouldWaitRoundsOfTheUsualServiceBehindAQueueLongerThanTheBatch() {
    final InstanceScore queued = usual("a", 4, 9);

    // 9 queued and this one, 4 slots each freeing every 1,050 ms, staggered by a quarter of it
    assertThat(LatencyPredictor.queueWaitMs(queued)).isCloseTo(10 * 1_050 / 4.0, within(1e-9));
    assertThat(LatencyPredictor.slotFreeMs(4, 9, 1_050, new OwnWork(new double[0], new double[] {1_050})))
        .as("one of them its own, of the usual shape: slot by slot as the closed form")
        .isCloseTo(10 * 1_050 / 4.0, within(1e-9));
  }

  @Test
  void shouldScaleTheQueueWaitByWhatTheInstancesQueuedAttemptsWaitedOverTheEstimates() {
    final InstanceScore queued = loaded("a", 4, 3);
    queued.getLatencyModel().setMeanInputTokens(100.0);
    queued.getLatencyModel().setMeanOutputTokens(50.0);
    final Heatmap heatmap = Rows.heatmap(queued);
    final double estimate = LatencyPredictor.queueEstimateMs(heatmap, "a");

    queued.getLatencyModel().setQueueWaitScale(2.5);

    assertThat(estimate).isCloseTo(1_050.0, within(1e-9));
    assertThat(LatencyPredictor.queueEstimateMs(Rows.heatmap(queued), "a")).as("the estimate stays unscaled")
        .isCloseTo(estimate, within(1e-9));
    assertThat(LatencyPredictor.queueWaitMs(queued)).isCloseTo(2.5 * estimate, within(1e-9));
  }

  @Test
  void shouldScaleByThePeersMedianEvenBeforeAnyHasCompletionsEnoughForAFit() {
    final InstanceScore scaled = loaded("a", 4, 3);
    scaled.getLatencyModel().setQueueWaitScale(3.0);
    final Heatmap plain = Rows.heatmap(loaded("a", 4, 3), loaded("b", 4, 3));
    final Heatmap learned = Rows.heatmap(scaled, loaded("b", 4, 3));

    // The median of 3 and 1: the queue wait doubles on both peers.
    assertThat(LatencyPredictor.ttftMs(learned, "b", REQUEST) - LatencyPredictor.ttftMs(plain, "b", REQUEST))
        .isCloseTo(LatencyPredictor.queueEstimateMs(plain, "b"), within(1e-9));
    assertThat(LatencyPredictor.queueEstimateMs(plain, "b")).isPositive();
  }

  @Test
  void shouldRankTheLessBusyOfTwoEqualInstancesFirst() {
    final Heatmap heatmap = Rows.heatmap(withDecodeStep(loaded("a", 6, 0), 8, 0.5),
        withDecodeStep(loaded("b", 2, 0), 8, 0.5));

    assertThat(new LatencyAwarePolicy().rank(REQUEST, heatmap)).extracting(Candidate::instanceId)
        .containsExactly("b", "a");
  }

  @Test
  void shouldPredictAnInstanceWithoutCompletionsLikeItsBestKnownPeer() {
    // "fitted" decodes at 10 ms per token, 8 + 0.5 per sequence; "new" has served nothing and
    // keeps the defaults (20 ms per token), which would rank it last forever
    final InstanceScore fitted = withDecodeStep(loaded("fitted", 8, 0), 8, 0.5);
    fitted.getLatencyModel().setSamples(200L);
    fitted.getLatencyModel().setLatencyPerOutputTokenMs(10.0);
    final InstanceScore fresh = loaded("new", 0, 0);

    assertThat(new LatencyAwarePolicy().rank(REQUEST, Rows.heatmap(fitted, fresh)))
        .extracting(Candidate::instanceId).containsExactly("new", "fitted");
    assertThat(Rows.heatmap(fitted, fresh).peerModels().of(fresh)).isEqualTo(fitted.getLatencyModel());
  }

  @Test
  void shouldRankInstancesOfOneModelByTheMedianOfTheirFitsNotEachOnesOwn() {
    // Three equal engines; "flat" fitted its slope over a few batch sizes and came out at
    // 0.06 ms per sequence. By its own fit it would look cheapest with 10 sequences running.
    final InstanceScore flat = fitted(withDecodeStep(loaded("flat", 10, 0), 11.4, 0.06));
    final InstanceScore steep = fitted(withDecodeStep(loaded("steep", 3, 0), 10.5, 0.65));
    final InstanceScore right = fitted(withDecodeStep(loaded("right", 5, 0), 10.0, 0.5));
    final Heatmap heatmap = Rows.heatmap(flat, steep, right);

    assertThat(new LatencyAwarePolicy().rank(REQUEST, heatmap)).extracting(Candidate::instanceId)
        .containsExactly("steep", "right", "flat");
    final LatencyModel pooled = heatmap.peerModels().of(flat);
    assertThat(pooled.getDecodeStepBaseMs()).isEqualTo(10.5);
    assertThat(pooled.getDecodeStepPerSequenceMs()).isEqualTo(0.5);
    assertThat(pooled.getSamples()).isEqualTo(300L);
  }

  @Test
  void shouldKeepTheFitsOfDifferentModelsApart() {
    final InstanceScore small = fitted(withDecodeStep(loaded("small", 0, 0), 8, 0.5));
    final InstanceScore large = fitted(withDecodeStep(loaded("large", 0, 0), 30, 2));
    large.setModel("sim-70b");

    final PeerModels peers = Rows.heatmap(small, large).peerModels();

    assertThat(peers.of(small).getDecodeStepBaseMs()).isEqualTo(8.0);
    assertThat(peers.of(large).getDecodeStepBaseMs()).isEqualTo(30.0);
  }

  @Test
  void shouldPredictAClassWithoutCompletionsFromAFittedClassScaledByTheirDecodeSteps() {
    // "fast" is fitted: 20 ms and 0.2 ms per prompt token to its first token, a step of 8 + 0.5 ms;
    // "slow" has served too little for a fit of its own, and decodes 2.5 times more slowly
    final InstanceScore fast = fitted(withDecodeStep(loaded("fast", 0, 0), 8, 0.5));
    fast.setInstanceClass("fast");
    fast.getLatencyModel().setTtftInterceptMs(20.0);
    fast.getLatencyModel().setTtftPerInputTokenMs(0.2);
    final InstanceScore slow = withDecodeStep(loaded("slow", 0, 0), 20, 1.25);
    slow.setInstanceClass("slow");
    final Heatmap heatmap = Rows.heatmap(fast, slow);

    // 2.5 x (20 + 0.2 x 1000): the defaults would say 40 + 0.1 x 1000
    final RequestProfile longPrompt = new RequestProfile("seq-2", 1000, 50);
    assertThat(LatencyPredictor.ttftMs(heatmap, "slow", longPrompt)).isCloseTo(550.0, within(1e-6));
    assertThat(LatencyPredictor.ttftMs(heatmap, "fast", longPrompt)).isCloseTo(220.0, within(1e-6));
    assertThat(heatmap.peerModels().of(slow).getDecodeStepBaseMs()).isEqualTo(20.0);
  }

  @Test
  void shouldKeepTheDefaultsForAClassWithoutCompletionsWhoseStepIsNotKnown() {
    final InstanceScore fast = fitted(withDecodeStep(loaded("fast", 0, 0), 8, 0.5));
    fast.setInstanceClass("fast");
    final InstanceScore slow = loaded("slow", 0, 0);
    slow.setInstanceClass("slow");

    assertThat(Rows.heatmap(fast, slow).peerModels().of(slow)).isEqualTo(slow.getLatencyModel());
  }

  private static InstanceScore fitted(final InstanceScore row) {
    row.getLatencyModel().setSamples(100L);
    return row;
  }

  private static InstanceScore withDecodeStep(final InstanceScore row, final double baseMs,
      final double perSequenceMs) {
    row.setLatencyModel(LatencyModel.newBuilder(row(row.getInstanceId()).getLatencyModel())
        .setDecodeStepBaseMs(baseMs).setDecodeStepPerSequenceMs(perSequenceMs).build());
    return row;
  }

  /** A row holding {@code running} requests and {@code queued} more, whose usual request takes 1,050 ms. */
  private static InstanceScore usual(final String id, final int running, final int queued) {
    final InstanceScore row = loaded(id, running, queued);
    row.getLatencyModel().setMeanInputTokens(100.0);
    row.getLatencyModel().setMeanOutputTokens(50.0);
    return row;
  }
}
