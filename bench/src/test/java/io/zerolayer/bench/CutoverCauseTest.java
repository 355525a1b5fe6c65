package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CutoverCauseTest {

  /** The reasons token-buffer's stall rules give (StallDetector, OwnerHealth), as the router quotes them. */
  @Test
  void shouldNameTheCauseOfEachStallReportTheRouterQuotes() {
    assertThat(CutoverCause.of("gpu-1 stalled (the worker reported the attempt failed: CUDA out of memory)"))
        .isEqualTo(CutoverCause.FAILED);
    assertThat(CutoverCause.of("gpu-1 stalled (owner gpu-1 is loading its weights (warm-up 3%) and a warm instance"
        + " can start the sequence now)")).isEqualTo(CutoverCause.LOADING);
    assertThat(CutoverCause.of("gpu-1 stalled (owner gpu-1 ejected by the heatmap (fragmentation 99%))"))
        .isEqualTo(CutoverCause.HEATMAP);
    assertThat(CutoverCause.of("gpu-1 stalled (owner gpu-1's token cadence is past the cut-over threshold (TGSV))"))
        .isEqualTo(CutoverCause.HEATMAP);
    assertThat(CutoverCause.of("gpu-1 stalled (token rate down more than 40% for 3 checks (recent rate 80.0/s))"))
        .isEqualTo(CutoverCause.SLOW);
    assertThat(CutoverCause.of("gpu-1 stalled (no token within 1200 ms)")).isEqualTo(CutoverCause.SILENT);
    assertThat(CutoverCause.of("gpu-1 stalled (no first token and no word from the worker within 3000 ms)"))
        .isEqualTo(CutoverCause.SILENT);
    assertThat(CutoverCause.of("gpu-1 stalled (owner gpu-1 stopped: 2 or more of its streams stalled with no token"
        + " at all)")).isEqualTo(CutoverCause.SILENT);
    assertThat(CutoverCause.of("gpu-5 queued: no first token 13500 ms after the decision, against 8912 ms predicted;"
        + " moved to an instance that starts it at once, cost 980")).isEqualTo(CutoverCause.QUEUED);
    assertThat(CutoverCause.of("resumed for reasons unknown")).isEqualTo(CutoverCause.OTHER);
  }
}
