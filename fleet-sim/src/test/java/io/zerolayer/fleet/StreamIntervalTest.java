package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.DispatchTask;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The first token of every attempt leaves at once; the rest in chunks of the profile's size. */
@Timeout(30)
class StreamIntervalTest {

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-1", "zone-a", "sim-8b", GpuProfile.standard(), true, clock);

  @AfterEach
  void shutDown() {
    gpu.close();
  }

  @Test
  void shouldSendTheFirstTokenAloneThenFullChunks() throws Exception {
    final RecordingSink sink = new RecordingSink(clock);

    gpu.generate(task(), sink);

    assertThat(sink.chunkSizes()).startsWith(1, 4, 4).endsWith(3).hasSize(17);
  }

  @Test
  void shouldSendTheFirstResumedTokenAlone() throws Exception {
    final DispatchTask first = task();
    final RecordingSink sink = new RecordingSink(clock);

    gpu.generate(Tasks.resumed(first, Tasks.firstTokens(first, 9)), sink);

    assertThat(sink.chunkSizes()).startsWith(1, 4, 4).endsWith(2).hasSize(15);
  }

  /** 64 tokens whatever the text: 1, then 15 chunks of 4, then the last 3. */
  private static DispatchTask task() {
    return DispatchTask.newBuilder(Tasks.task("s-1", 100, 64)).setIgnoreEos(true).build();
  }
}
