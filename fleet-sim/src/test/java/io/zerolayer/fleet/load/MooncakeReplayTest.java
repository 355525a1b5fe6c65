package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.prefix.PrefixBlocks;
import io.zerolayer.fleet.load.TraceReplay.Arrival;
import io.zerolayer.fleet.load.TraceReplay.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the Mooncake synthetic trace (kvcache-ai/Mooncake, Apache-2.0; Qin et al., FAST 2025), in
 * shared/traces beside the repository.
 */
class MooncakeReplayTest {

  private static final Path TRACE = Path.of("..", "..", "shared", "traces", "mooncake-synthetic.jsonl");
  private static final TokenRange ANY = new TokenRange(1, 1_000_000);
  private static final PromptWriter WRITER = new PromptWriter();

  @Test
  void shouldReadTheFirstRowsScaledToSixteenTokensABlock() throws IOException {
    final List<Arrival> arrivals = TraceReplay.read(TRACE, new Settings(2.0, 6, ANY, ANY, 1), WRITER).arrivals();

    // 40,160 recorded prompt tokens in 79 blocks of 512: 1,255 tokens in 79 blocks of 16.
    assertThat(arrivals.get(0)).isEqualTo(new Arrival(Duration.ZERO, 1_255, 6,
        LongStream.range(0, 79).boxed().toList()));
    assertThat(arrivals.get(2).at()).isEqualTo(Duration.ofMillis(20));
    assertThat(arrivals.get(5)).isEqualTo(new Arrival(Duration.ofNanos(264_500_000), 1, 445, List.of(298L)));
  }

  @Test
  void shouldGiveRequestsThatShareLeadingBlocksTheSamePromptPrefix() throws IOException {
    final TraceReplay replay = TraceReplay.read(TRACE, new Settings(1.0, 60, ANY, ANY, 7), WRITER);
    // Requests 42 and 49 share their first 57 of 60 blocks.
    final long[] first = PrefixBlocks.of(replay.spec(42).prompt());
    final long[] second = PrefixBlocks.of(replay.spec(49).prompt());

    int shared = 0;
    while (shared < Math.min(first.length, second.length) && first[shared] == second[shared]) {
      shared++;
    }
    assertThat(shared).isGreaterThan(first.length * 8 / 10).isLessThan(first.length);
    assertThat(replay.spec(42).promptTokens()).isEqualTo(WRITER.count(replay.spec(42).prompt()));
    assertThat(replay.describe()).contains("Mooncake", "Apache-2.0", "16 tokens per trace block");
  }

  @Test
  void shouldDropTrailingBlocksOfAClampedPrompt() throws IOException {
    final List<Arrival> arrivals = TraceReplay.read(TRACE, new Settings(1.0, 1, new TokenRange(1, 100), ANY, 1),
        WRITER).arrivals();

    assertThat(arrivals.get(0).promptTokens()).isEqualTo(100);
    assertThat(arrivals.get(0).prefixBlocks()).hasSize(7);
  }

  @Test
  void shouldNameTheLineThatIsNotATraceRow(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("trace.jsonl");
    Files.writeString(file, "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1]}\n"
        + "{\"timestamp\": 5, \"output_length\": 2, \"hash_ids\": [1]}\n");

    assertThatThrownBy(() -> TraceReplay.read(file, new Settings(1.0, 10, ANY, ANY, 1), WRITER))
        .isInstanceOf(IOException.class).hasMessageContaining("line 2").hasMessageContaining("no input_length");
  }
}
