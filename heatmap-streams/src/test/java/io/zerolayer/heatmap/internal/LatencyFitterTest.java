package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.Random;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class LatencyFitterTest {

  private static final LatencyModel DEFAULTS = LatencyModel.newBuilder().setLatencyInterceptMs(40)
      .setLatencyPerInputTokenMs(0.1).setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40)
      .setTtftPerInputTokenMs(0.1).setTtftPerOutputTokenMs(0).setSamples(0).build();

  private final LatencyFitter fitter = new LatencyFitter(300_000, 10, DEFAULTS);

  @Test
  void shouldRecoverKnownCoefficientsWithin5PercentFromNoisyCompletions() {
    // latency = 120 + 0.35 in + 18 out, TTFT = 45 + 0.3 in, each with +-10 ms of jitter
    final Random random = new Random(7);
    LatencyFit fit = null;
    for (int i = 0; i < 500; i++) {
      final int in = 20 + random.nextInt(3000);
      final int out = 1 + random.nextInt(600);
      fit = fitter.add(fit, in, out, 120 + 0.35 * in + 18 * out + jitter(random), 45 + 0.3 * in + jitter(random),
          1_000L * i);
    }

    final LatencyModel model = fitter.model(fit);

    assertThat(model.getLatencyInterceptMs()).isBetween(120 * 0.95, 120 * 1.05);
    assertThat(model.getLatencyPerInputTokenMs()).isBetween(0.35 * 0.95, 0.35 * 1.05);
    assertThat(model.getLatencyPerOutputTokenMs()).isBetween(18 * 0.95, 18 * 1.05);
    assertThat(model.getTtftInterceptMs()).isBetween(45 * 0.95, 45 * 1.05);
    assertThat(model.getTtftPerInputTokenMs()).isBetween(0.3 * 0.95, 0.3 * 1.05);
    assertThat(model.getSamples()).isEqualTo(500);
  }

  private static double jitter(final Random random) {
    return 20 * (random.nextDouble() - 0.5);
  }

  @Test
  void shouldFollowAnInstanceThatSlowsDownAsOldCompletionsDecay() {
    final Random random = new Random(11);
    LatencyFit fit = null;
    long at = 0;
    for (int i = 0; i < 300; i++, at += 1_000) {
      final int in = 50 + random.nextInt(1000);
      final int out = 1 + random.nextInt(300);
      fit = fitter.add(fit, in, out, 100 + 0.2 * in + 10 * out, 40 + 0.2 * in, at);
    }
    // an hour later (12 half-lives) the instance decodes at 30 ms per token
    at += 3_600_000;
    for (int i = 0; i < 50; i++, at += 1_000) {
      final int in = 50 + random.nextInt(1000);
      final int out = 1 + random.nextInt(300);
      fit = fitter.add(fit, in, out, 100 + 0.2 * in + 30 * out, 40 + 0.2 * in, at);
    }

    assertThat(fitter.model(fit).getLatencyPerOutputTokenMs()).isBetween(30 * 0.95, 30 * 1.05);
  }

  @Test
  void shouldForgetASlowStartOnceItsOwnFitKeepsMissingTheSameWay() {
    // Within one half-life: an instance whose first 40 completions took four times as long as it takes now
    final Random random = new Random(5);
    LatencyFit fit = null;
    long at = 0;
    for (int i = 0; i < 40; i++, at += 200) {
      final int in = 50 + random.nextInt(4_000);
      final int out = 1 + random.nextInt(300);
      fit = fitter.add(fit, in, out, 4 * trueLatency(in, out), 4 * trueTtft(in), at);
    }
    for (int i = 0; i < 12; i++, at += 200) {
      final int in = 50 + random.nextInt(4_000);
      final int out = 1 + random.nextInt(300);
      fit = fitter.add(fit, in, out, trueLatency(in, out), trueTtft(in), at);
    }

    final LatencyModel model = fitter.model(fit);
    for (final int in : new int[] {100, 1_000, 4_000}) {
      assertThat(LatencyFitter.ttft(model, in, 0) / trueTtft(in)).as("TTFT of %d prompt tokens", in)
          .isBetween(0.8, 1.2);
      assertThat(LatencyFitter.latency(model, in, 100) / trueLatency(in, 100)).as("latency of %d in", in)
          .isBetween(0.8, 1.2);
    }
  }

  @Test
  void shouldKeepItsPastThroughOrdinaryScatter() {
    // Each completion up to 30 % either side of the truth, at random: the fit drifts past its limit rarely
    final Random random = new Random(9);
    LatencyFit fit = null;
    int forgetting = 0;
    for (int i = 0; i < 1_000; i++) {
      final int in = 50 + random.nextInt(4_000);
      final int out = 1 + random.nextInt(300);
      final double scatter = 1 + 0.6 * (random.nextDouble() - 0.5);
      fit = fitter.add(fit, in, out, scatter * trueLatency(in, out), scatter * trueTtft(in), 100L * i);
      if (Math.abs(fit.getTtftDrift()) > LatencyFitter.DRIFT_LIMIT
          || Math.abs(fit.getLatencyDrift()) > LatencyFitter.DRIFT_LIMIT) {
        forgetting++;
      }
    }

    assertThat(forgetting).isLessThanOrEqualTo(10);
    assertThat(fitter.model(fit).getTtftPerInputTokenMs()).isBetween(0.05 * 0.9, 0.05 * 1.1);
  }

  @Test
  void shouldKeepTheDefaultsUntilThereAreEnoughCompletions() {
    LatencyFit fit = null;
    for (int i = 0; i < 9; i++) {
      fit = fitter.add(fit, 100 * i, 10 * i, 500, 50, i);
    }
    assertThat(fitter.model(fit)).isEqualTo(DEFAULTS);
  }

  @Test
  void shouldFitTheShapeItSawAndSplitTheRestAsTheDefaultsDoWhenTheCompletionsCannotSeparateTheCoefficients() {
    LatencyFit fit = null;
    for (int i = 0; i < 50; i++) {
      // every completion has the same shape: input and output effects cannot be told apart
      fit = fitter.add(fit, 100, 10, 500, 50, i);
    }

    final LatencyModel model = fitter.model(fit);

    assertThat(LatencyFitter.latency(model, 100, 10)).isCloseTo(500, Percentage.withPercentage(2));
    assertThat(LatencyFitter.ttft(model, 100, 10)).isCloseTo(50, Percentage.withPercentage(2));
    // A prompt ten times as long: the defaults' split says 90 ms more; no coefficient runs off
    assertThat(LatencyFitter.ttft(model, 1_000, 10) - LatencyFitter.ttft(model, 100, 10)).isBetween(0.0, 2 * 90.0);
    assertThat(model.getTtftPerOutputTokenMs()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void shouldStayWithinTwiceTheTruthAfterTenNearIdenticalRequestsAndWithinTenPercentOnceTrafficVaries() {
    // An engine like the simulated one: TTFT 55 ms + 0.05 ms per prompt token, then 20 ms per token
    final Random random = new Random(3);
    LatencyFit fit = null;
    long at = 0;
    for (int i = 0; i < 10; i++, at += 100) {
      final int in = 1_000 + random.nextInt(21) - 10;
      final int out = 64 + random.nextInt(5) - 2;
      fit = fitter.add(fit, in, out, trueLatency(in, out) + jitter(random) / 2, trueTtft(in) + jitter(random) / 2, at);
    }

    final LatencyModel early = fitter.model(fit);
    for (final int in : new int[] {50, 1_000, 8_000}) {
      assertThat(LatencyFitter.ttft(early, in, 0) / trueTtft(in)).as("TTFT of %d prompt tokens", in)
          .isBetween(0.5, 2.0);
      for (final int out : new int[] {8, 64, 512}) {
        assertThat(LatencyFitter.latency(early, in, out) / trueLatency(in, out)).as("latency of %d in, %d out", in, out)
            .isBetween(0.5, 2.0);
      }
    }

    for (int i = 0; i < 300; i++, at += 100) {
      final int in = 20 + random.nextInt(4_000);
      final int out = 1 + random.nextInt(600);
      fit = fitter.add(fit, in, out, trueLatency(in, out) + jitter(random) / 2, trueTtft(in) + jitter(random) / 2, at);
    }

    final LatencyModel varied = fitter.model(fit);
    assertThat(varied.getTtftInterceptMs()).isBetween(55 * 0.9, 55 * 1.1);
    assertThat(varied.getTtftPerInputTokenMs()).isBetween(0.05 * 0.9, 0.05 * 1.1);
    assertThat(varied.getLatencyPerOutputTokenMs()).isBetween(20 * 0.9, 20 * 1.1);
    assertThat(varied.getLatencyPerInputTokenMs()).isBetween(0.05 * 0.9, 0.05 * 1.1);
  }

  private static double trueTtft(final int in) {
    return 55 + 0.05 * in;
  }

  private static double trueLatency(final int in, final int out) {
    return trueTtft(in) + 20.0 * out;
  }

  @Test
  void shouldWeighACompletionThatArrivesLateAsIfItHadComeInOrder() {
    final LatencyFit inOrder = fitter.add(fitter.add(null, 100, 10, 300, 50, 0), 200, 20, 600, 80, 300_000);
    final LatencyFit late = fitter.add(fitter.add(null, 200, 20, 600, 80, 300_000), 100, 10, 300, 50, 0);

    assertThat(late.getGram()).containsExactlyElementsOf(inOrder.getGram());
    assertThat(late.getLatencyMoment()).containsExactlyElementsOf(inOrder.getLatencyMoment());
  }

  @Test
  void shouldLearnTheShareOfTheirLimitRequestsUse() {
    LatencyFit fit = null;
    for (int i = 0; i < 200; i++) {
      fit = fitter.add(fit, 100, 60, 1_000, 50, 1_000L * i);
      fit = fitter.observeOutput(fit, 60 + i % 2 * 20, 100);
    }

    assertThat(fitter.model(fit).getExpectedOutputShare()).isCloseTo(0.7, Percentage.withPercentage(2));
    assertThat(fitter.observeOutput(fit, 5, 0)).isSameAs(fit);
  }

  @Test
  void shouldAverageTheTimeFromDecisionToStartFromTheFirstCompletionOn() {
    LatencyFit fit = fitter.observeHandoff(fitter.add(null, 100, 10, 1_000, 50, 0L), 12);
    assertThat(fitter.model(fit).getHandoffMs()).as("one completion, before the fit replaces the defaults")
        .isEqualTo(12.0);
    for (int i = 1; i < 200; i++) {
      fit = fitter.observeHandoff(fitter.add(fit, 100, 10, 1_000, 50, 10L * i), 4 + i % 2 * 2);
    }

    assertThat(fitter.model(fit).getHandoffMs()).isCloseTo(5.0, Percentage.withPercentage(5));
    assertThat(fitter.model(null).getHandoffMs()).isZero();
  }

  @Test
  void shouldAverageTheTokensOfTheFirstChunkOnceTheFitIsOwnAndIgnoreCompletionsThatDoNotSay() {
    LatencyFit fit = null;
    for (int i = 0; i < 200; i++) {
      fit = fitter.observeFirstChunk(fitter.add(fit, 100, 10, 1_000, 50, 10L * i), 4);
    }
    assertThat(fitter.observeFirstChunk(fit, 0)).as("an older worker's completion").isSameAs(fit);
    assertThat(fitter.model(fit).getFirstChunkTokens()).isEqualTo(4.0);
    assertThat(fitter.model(fitter.add(null, 100, 10, 1_000, 50, 0L)).getFirstChunkTokens())
        .as("the defaults' TTFT says nothing of it").isZero();

    for (int i = 0; i < 200; i++) {
      fit = fitter.observeFirstChunk(fit, 1);
    }
    assertThat(fitter.model(fit).getFirstChunkTokens()).isCloseTo(1.0, Percentage.withPercentage(1));
  }

  @Test
  void shouldScaleQueueEstimatesByWhatQueuedAttemptsWaitedOnceFiveTellWithinBounds() {
    LatencyFit fit = fitter.add(null, 100, 10, 1_000, 50, 0L);
    for (int i = 0; i < 4; i++) {
      fit = fitter.observeQueue(fit, 600 + 100 * (i % 2), 300);
    }
    assertThat(fitter.model(fit).getQueueWaitScale()).as("four attempts").isEqualTo(1.0);
    assertThat(fitter.observeQueue(fit, 900, 0)).as("no wait estimated").isSameAs(fit);

    for (int i = 0; i < 200; i++) {
      fit = fitter.observeQueue(fit, 600 + 100 * (i % 2), 300);
    }
    assertThat(fitter.model(fit).getQueueWaitScale()).isCloseTo(650.0 / 300, Percentage.withPercentage(3));

    for (int i = 0; i < 200; i++) {
      fit = fitter.observeQueue(fit, 9_000, 300);
    }
    assertThat(fitter.model(fit).getQueueWaitScale()).isEqualTo(LatencyFitter.MAX_QUEUE_SCALE);
  }

  @Test
  void shouldPublishTheMeanShapeOfTheCompletionsBehindTheFit() {
    LatencyFit fit = null;
    for (int i = 0; i < 20; i++) {
      fit = fitter.add(fit, 100 + 200 * (i % 2), 10 + 20 * (i % 2), 1_000, 50, 0L);
    }

    assertThat(fitter.model(fit).getMeanInputTokens()).isCloseTo(200.0, Percentage.withPercentage(0.01));
    assertThat(fitter.model(fit).getMeanOutputTokens()).isCloseTo(20.0, Percentage.withPercentage(0.01));
    assertThat(fitter.model(null).getMeanInputTokens()).isZero();
  }
}
