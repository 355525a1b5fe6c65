package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import io.zerolayer.fleet.load.TraceReplay.Arrival;
import io.zerolayer.fleet.load.TraceReplay.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On the Azure LLM inference trace 2023 (conversation), CC-BY 4.0, in shared/traces beside the repository. */
class TraceReplayTest {

  /** Tests run in the module's directory; shared/ lies beside the repository. */
  private static final Path TRACE = Path.of("..", "..", "shared", "traces", "azure-llm-2023-conv.csv");
  private static final TokenRange ANY = new TokenRange(1, 1_000_000);
  private static final PromptWriter WRITER = new PromptWriter();

  @Test
  void shouldReadTheFirstRowsOfTheTraceAsRecorded() throws IOException {
    final List<Arrival> arrivals = read(new Settings(1.0, 4, ANY, ANY, 1)).arrivals();

    assertThat(arrivals).containsExactly(
        new Arrival(Duration.ZERO, 374, 44),
        new Arrival(Duration.ofNanos(4_314_579_000L), 396, 109),
        new Arrival(Duration.ofNanos(4_541_877_000L), 879, 55),
        new Arrival(Duration.ofNanos(4_710_427_000L), 91, 16));
  }

  @Test
  void shouldReadEveryRowOfTheHour() throws IOException {
    final List<Arrival> arrivals = read(new Settings(1.0, Integer.MAX_VALUE, ANY, ANY, 1)).arrivals();

    assertThat(arrivals).hasSize(19_366);
    assertThat(arrivals.get(arrivals.size() - 1))
        .isEqualTo(new Arrival(Duration.ofNanos(3_501_721_937_000L), 197, 183));
  }

  @Test
  void shouldDivideArrivalTimesByTheSpeedupAndStopAtTheCap() throws IOException {
    final List<Arrival> arrivals = read(new Settings(10.0, 100, ANY, ANY, 1)).arrivals();

    assertThat(arrivals).hasSize(100);
    assertThat(arrivals.get(1).at()).isEqualTo(Duration.ofNanos(431_457_900L));
    assertThat(arrivals.get(99)).isEqualTo(new Arrival(Duration.ofNanos(4_268_522_300L), 859, 422));
  }

  @Test
  void shouldStartAtTheFirstRequestReplayedAndCountTimesFromIt() throws IOException {
    final TraceReplay replay = read(new Settings(1.0, 2, 2, ANY, ANY, 1));

    assertThat(replay.arrivals()).containsExactly(
        new Arrival(Duration.ZERO, 879, 55),
        new Arrival(Duration.ofNanos(4_710_427_000L - 4_541_877_000L), 91, 16));
    assertThat(replay.describe()).contains("2 requests of azure-llm-2023-conv.csv from its request 3");
  }

  @Test
  void shouldNameTheTraceLengthWhenTheReplayWouldStartPastItsEnd() {
    assertThatThrownBy(() -> read(new Settings(1.0, 19_366, 1, ANY, ANY, 1)))
        .isInstanceOf(IOException.class).hasMessageContaining("holds 19366 requests");
  }

  @Test
  void shouldClampTokenCountsToTheLimits() throws IOException {
    final List<Arrival> arrivals = read(new Settings(1.0, Integer.MAX_VALUE, new TokenRange(100, 2048),
        new TokenRange(10, 256), 1)).arrivals();

    assertThat(arrivals).allSatisfy(a -> {
      assertThat(a.promptTokens()).isBetween(100, 2048);
      assertThat(a.outputTokens()).isBetween(10, 256);
    });
    // Rows recorded at or above the upper limits, and at or below the lower ones
    assertThat(arrivals).filteredOn(a -> a.promptTokens() == 2048).hasSize(2703);
    assertThat(arrivals).filteredOn(a -> a.outputTokens() == 256).hasSize(6532);
    assertThat(arrivals).filteredOn(a -> a.promptTokens() == 100).hasSize(398);
    assertThat(arrivals).filteredOn(a -> a.outputTokens() == 10).hasSize(3);
    assertThat(arrivals.get(0)).isEqualTo(new Arrival(Duration.ZERO, 374, 44));
  }

  @Test
  void shouldWritePromptsOfTheRecordedTokenCountAskingForExactlyTheRecordedOutput() throws IOException {
    final TraceReplay replay = read(new Settings(1.0, 4, ANY, ANY, 7));

    final RequestSpec spec = replay.spec(2);

    assertThat(Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE).countTokens(spec.prompt()))
        .isEqualTo(879);
    assertThat(spec).extracting(RequestSpec::band, RequestSpec::promptTokens, RequestSpec::maxOutputTokens,
        RequestSpec::ignoreEos).containsExactly(PromptBand.MEDIUM, 879, 55, true);
    assertThat(replay.spec(3).band()).isEqualTo(PromptBand.SHORT);
    assertThat(replay.spec(2)).isEqualTo(spec);
  }

  @Test
  void shouldNameTheTraceAndItsLicenceInItsDescription() throws IOException {
    final String description = read(new Settings(10.0, 100, ANY, ANY, 1)).describe();

    assertThat(description).contains("100 requests", "azure-llm-2023-conv.csv", "10.0x",
        "Azure LLM inference trace 2023", "CC-BY 4.0", "Splitwise");
  }

  @Test
  void shouldNameTheMissingPath(@TempDir final Path dir) {
    final Path missing = dir.resolve("no-such-trace.csv");

    assertThatThrownBy(() -> TraceReplay.read(missing, new Settings(1.0, 1, ANY, ANY, 1), WRITER))
        .isInstanceOf(NoSuchFileException.class).hasMessageContaining(missing.toAbsolutePath().toString());
  }

  @Test
  void shouldNameTheLineThatIsNotATraceRow(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("bad.csv");
    Files.writeString(file, "TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:15:46.6805900,374,44\r\n"
        + "2023-11-16 18:15:47,lots,44\r\n");

    assertThatThrownBy(() -> TraceReplay.read(file, new Settings(1.0, 10, ANY, ANY, 1), WRITER))
        .isInstanceOf(IOException.class).hasMessageContaining("line 3");
  }

  @Test
  void shouldRefuseAFileWithAnotherHeader(@TempDir final Path dir) throws IOException {
    final Path file = dir.resolve("other.csv");
    Files.writeString(file, "timestamp,input_length,output_length\n0,1,2\n");

    assertThatThrownBy(() -> TraceReplay.read(file, new Settings(1.0, 10, ANY, ANY, 1), WRITER))
        .isInstanceOf(IOException.class).hasMessageContaining("expected the Azure trace's header");
  }

  private static TraceReplay read(final Settings settings) throws IOException {
    return TraceReplay.read(TRACE, settings, WRITER);
  }
}
