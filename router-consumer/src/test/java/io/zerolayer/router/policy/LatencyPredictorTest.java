package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
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
    assertThat(new PeerModels(Rows.heatmap(fitted, fresh)).predictable(fresh).getLatencyModel())
        .isEqualTo(fitted.getLatencyModel());
  }

  private static InstanceScore withDecodeStep(final InstanceScore row, final double baseMs,
      final double perSequenceMs) {
    row.setLatencyModel(LatencyModel.newBuilder(row(row.getInstanceId()).getLatencyModel())
        .setDecodeStepBaseMs(baseMs).setDecodeStepPerSequenceMs(perSequenceMs).build());
    return row;
  }
}
