package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.DispatchTask;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ResumeTest {

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-1", "zone-a", "sim-8b", GpuProfile.standard(), true, clock);

  @AfterEach
  void shutDown() {
    gpu.close();
  }

  @Test
  void shouldContinueTheSequenceFromThePrefixItsTaskCarries() throws Exception {
    final DispatchTask first = Tasks.task("s-1", 100, 64);
    final String whole = Tasks.fullText(first);
    final List<String> prefix = Tasks.firstTokens(first, 12);

    final RecordingSink sink = new RecordingSink(clock);
    gpu.generate(Tasks.resumed(first, prefix), sink);

    assertThat(String.join("", prefix) + sink.text()).isEqualTo(whole);
  }

  @Test
  void shouldFailAResumedTaskThatCarriesNoPrefixRatherThanGuessIt() {
    final DispatchTask task = Tasks.resumed(Tasks.task("s-1", 100, 64), List.of());
    task.setResumeFromIndex(12);

    assertThatThrownBy(() -> gpu.generate(task, new RecordingSink(clock)))
        .isInstanceOf(GenerationFailedException.class).hasMessageContaining("resumes at index 12 but carries 0");
  }
}
