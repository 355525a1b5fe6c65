package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.DecodeStepFit;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DecodeStepFitterTest {

  private static final LatencyModel MODEL = LatencyModel.newBuilder().setLatencyInterceptMs(40)
      .setLatencyPerInputTokenMs(0.1).setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40)
      .setTtftPerInputTokenMs(0.1).setTtftPerOutputTokenMs(0).setSamples(0).build();

  private final DecodeStepFitter fitter = new DecodeStepFitter(300_000);

  @Test
  void shouldRecoverTheStepOfABatchThatGrowsFromNoisyTelemetry() {
    // step = 8 + 0.5 * running ms, +-1 ms of jitter, sampled every 50 ms
    final Random random = new Random(3);
    DecodeStepFit fit = null;
    for (int i = 0; i < 400; i++) {
      final int running = 1 + random.nextInt(16);
      final double stepMs = 8 + 0.5 * running + 2 * (random.nextDouble() - 0.5);
      fit = fitter.add(fit, running, 1000.0 / stepMs, 50L * i);
    }

    final LatencyModel model = fitter.withDecodeStep(MODEL, fit);

    assertThat(model.getDecodeStepBaseMs()).isBetween(8 * 0.95, 8 * 1.05);
    assertThat(model.getDecodeStepPerSequenceMs()).isBetween(0.5 * 0.95, 0.5 * 1.05);
    assertThat(model.getLatencyPerOutputTokenMs()).isEqualTo(20);
  }

  @Test
  void shouldPublishNoStepUntilEnoughSamplesOfDifferentBatchesCameIn() {
    DecodeStepFit fit = null;
    for (int i = 0; i < DecodeStepFitter.MIN_SAMPLES - 1; i++) {
      fit = fitter.add(fit, 1 + i % 4, 100, 50L * i);
    }
    assertThat(fitter.withDecodeStep(MODEL, fit).getDecodeStepBaseMs()).isZero();

    DecodeStepFit sameBatch = null;
    for (int i = 0; i < 200; i++) {
      sameBatch = fitter.add(sameBatch, 4, 100, 50L * i);
    }
    final LatencyModel unknown = fitter.withDecodeStep(MODEL, sameBatch);
    assertThat(unknown.getDecodeStepBaseMs()).isZero();
    assertThat(unknown.getDecodeStepPerSequenceMs()).isZero();
  }

  @Test
  void shouldIgnoreSamplesOfAnIdleInstanceOrWithoutADecodeSpeed() {
    final DecodeStepFit fit = fitter.add(null, 3, 80, 0);

    assertThat(fitter.add(fit, 0, 80, 50)).isSameAs(fit);
    assertThat(fitter.add(fit, 3, 0.0, 50)).isSameAs(fit);
    assertThat(fitter.add(fit, 3, Double.NaN, 50)).isSameAs(fit);
  }

  @Test
  void shouldFollowAnInstanceWhoseStepChangedAsOldSamplesDecay() {
    DecodeStepFit fit = null;
    long at = 0;
    for (int i = 0; i < 400; i++, at += 50) {
      final int running = 1 + i % 10;
      fit = fitter.add(fit, running, 1000.0 / (8 + 0.5 * running), at);
    }
    // an hour later (12 half-lives) each extra sequence costs 2 ms
    at += 3_600_000;
    for (int i = 0; i < 400; i++, at += 50) {
      final int running = 1 + i % 10;
      fit = fitter.add(fit, running, 1000.0 / (8 + 2.0 * running), at);
    }

    assertThat(fitter.withDecodeStep(MODEL, fit).getDecodeStepPerSequenceMs()).isBetween(1.9, 2.1);
  }
}
