package io.zerolayer.tokenbuffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.avro.TokenRun;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.testing.GoldenFile;
import io.zerolayer.tokenbuffer.internal.InputLag;
import io.zerolayer.tokenbuffer.internal.SequenceSweeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TokenBufferTopologyTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final TokenBufferConfig CONFIG = new TokenBufferConfig(Map.of());

  private final TopicCatalogue catalogue = TopicCatalogue.unprefixed();
  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private TopologyTestDriver driver;
  private TestInputTopic<String, RoutingDecision> decisions;
  private TestInputTopic<String, TokenChunk> tokens;
  private TestOutputTopic<String, ResponseChunk> responses;

  private final InputLag inputLag = new InputLag(catalogue.name(Topics.TOKENS), TokenBufferTopology.BEHIND_RECORDS);

  @BeforeEach
  void setUp() {
    driver = driver(CONFIG);
  }

  /** A driver of the topology built with {@code config}, and the test's topics on it. */
  private TopologyTestDriver driver(final TokenBufferConfig config) {
    final TopologyTestDriver built = new TopologyTestDriver(
        TokenBufferTopology.build(config, catalogue, serdes, new SimpleMeterRegistry(), inputLag),
        props("token-buffer-test"), START);
    decisions = built.createInputTopic(catalogue.name(Topics.DECISIONS), new StringSerializer(),
        serdes.value(Topics.DECISIONS).serializer());
    tokens = built.createInputTopic(catalogue.name(Topics.TOKENS), new StringSerializer(),
        serdes.value(Topics.TOKENS).serializer());
    responses = built.createOutputTopic(catalogue.name(Topics.RESPONSES), new StringDeserializer(),
        serdes.value(Topics.RESPONSES).deserializer());
    return built;
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  @Test
  void shouldMatchTheCheckedInTopologyDescription() throws Exception {
    GoldenFile.assertMatches("token-buffer-topology.txt",
        TokenBufferTopology.build(CONFIG, catalogue, serdes, new SimpleMeterRegistry(), inputLag).describe()
            .toString());
  }

  @Test
  void shouldStreamTokensInOrderOnceEachAndCloseWithTheOutcome() {
    decisions.pipeInput("seq-1", decision("seq-1", null), START);
    tokens.pipeInput("seq-1", chunk("seq-1", 0, false, "Hel", "lo"), START.plusMillis(10));
    tokens.pipeInput("seq-1", chunk("seq-1", 0, false, "Hel", "lo"), START.plusMillis(20));
    tokens.pipeInput("seq-1", chunk("seq-1", 2, false, " wor", "ld"), START.plusMillis(30));
    tokens.pipeInput("seq-1", chunk("seq-1", 4, true), START.plusMillis(40));

    final List<ResponseChunk> out = responses.readValuesToList();

    assertThat(out).extracting(ResponseChunk::getStartIndex).containsExactly(0, 2, 4);
    assertThat(out.stream().flatMap(c -> c.getTokens().stream())).containsExactly("Hel", "lo", " wor", "ld");
    assertThat(out.get(2).getLast()).isTrue();
    assertThat(out.get(2).getOutcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldWriteToTheReplyTopicTheRequestNamed() {
    final TestOutputTopic<String, ResponseChunk> replies = driver.createOutputTopic("client-7-replies",
        new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());

    decisions.pipeInput("seq-2", decision("seq-2", "client-7-replies"), START);
    tokens.pipeInput("seq-2", chunk("seq-2", 0, true, "ok"), START.plusMillis(10));

    assertThat(responses.isEmpty()).isTrue();
    assertThat(replies.readValuesToList()).hasSize(1);
  }

  @Test
  void shouldAnswerARequestReusingALiveIdAloneAndReleaseTheIdOnlyWhenTheSequenceEnds() {
    final TestOutputTopic<String, byte[]> holds = driver.createOutputTopic(catalogue.name(Topics.SEQUENCE_HOLDS),
        new StringDeserializer(), new ByteArrayDeserializer());
    final RoutingDecision first = decision("seq-3", null);
    first.setRequestPartition(1);
    first.setRequestOffset(10);
    final RoutingDecision reuse = RoutingDecision.newBuilder(first).setEpoch(0).setInstanceId(null)
        .setOutcome(RoutingOutcome.REJECTED).setReason("sequence id 'seq-3' is in use").setRequestOffset(11).build();

    decisions.pipeInput("seq-3", first, START);
    tokens.pipeInput("seq-3", chunk("seq-3", 0, false, "Hel"), START.plusMillis(10));
    decisions.pipeInput("seq-3", reuse, START.plusMillis(20));
    assertThat(holds.isEmpty()).as("the refused reuse releases nothing").isTrue();
    tokens.pipeInput("seq-3", chunk("seq-3", 1, true, "lo"), START.plusMillis(30));

    final List<ResponseChunk> out = responses.readValuesToList();
    assertThat(out).extracting(ResponseChunk::getRequestOffset).containsExactly(10L, 11L, 10L);
    assertThat(out.get(1).getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(out.get(1).getTokens()).isEmpty();
    assertThat(out.get(2).getTokens()).containsExactly("lo");
    assertThat(out.get(2).getOutcome()).isEqualTo(RoutingOutcome.DIRECT);
    final var released = holds.readRecordsToList();
    assertThat(released).hasSize(1);
    assertThat(released.get(0).key()).isEqualTo("seq-3");
    assertThat(released.get(0).value()).as("a tombstone").isNull();
  }

  @Test
  void shouldReleaseNoIdForARequestRefusedAtTheDoor() {
    final TestOutputTopic<String, byte[]> holds = driver.createOutputTopic(catalogue.name(Topics.SEQUENCE_HOLDS),
        new StringDeserializer(), new ByteArrayDeserializer());

    decisions.pipeInput("seq-4", RoutingDecision.newBuilder(decision("seq-4", null)).setEpoch(0).setInstanceId(null)
        .setOutcome(RoutingOutcome.THROTTLED).setRetryAfterMs(250L).build(), START);

    assertThat(responses.readValuesToList()).extracting(ResponseChunk::getOutcome)
        .containsExactly(RoutingOutcome.THROTTLED);
    assertThat(holds.isEmpty()).isTrue();
  }

  @Test
  void shouldReportAStalledAttemptOnceWithWhereToResume() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    decisions.pipeInput("seq-3", decision("seq-3", null), START);
    tokens.pipeInput("seq-3", chunk("seq-3", 0, false, "a", "b"), START.plusMillis(10));

    // wall clock: 1300 ms without a new token, past the 1200 ms instance timeout
    driver.advanceWallClockTime(Duration.ofMillis(1300));
    driver.advanceWallClockTime(Duration.ofMillis(1300));

    final List<StallDetected> reported = stalls.readValuesToList();
    assertThat(reported).hasSize(1);
    assertThat(reported.get(0).getNextIndex()).isEqualTo(2);
    assertThat(reported.get(0).getPrefix()).containsExactly("a", "b");
    assertThat(reported.get(0).getInstanceId()).isEqualTo("gpu-1");
    assertThat(reported.get(0).getReason()).isEqualTo("no token within 1200 ms");
  }

  @Test
  void shouldJudgeNoStreamSilentWhileItReadsTheChunksLate() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    decisions.pipeInput("quiet", decision("quiet", null), START);
    tokens.pipeInput("quiet", chunk("quiet", 0, false, "a"), START.plusMillis(10));
    decisions.pipeInput("busy", decision("busy", null), START);

    // For 2 s, every chunk token-buffer reads was written a second before: its own backlog, known
    // as such once no fresh chunk came for a second, before the quiet stream's 1200 ms are up.
    for (int i = 0; i < 20; i++) {
      driver.advanceWallClockTime(Duration.ofMillis(100));
      final Instant now = START.plusMillis(100L * (i + 1));
      tokens.pipeInput("busy", chunk("busy", i, false, "b"), now.minusSeconds(1));
    }
    assertThat(stalls.readKeyValuesToList()).extracting(stall -> stall.key).as("no silence judged while reading late")
        .doesNotContain("quiet");

    // Caught up (the next chunk read at once), the quiet stream is judged again.
    tokens.pipeInput("busy", chunk("busy", 20, false, "b"), START.plusMillis(2000));
    driver.advanceWallClockTime(Duration.ofMillis(100));
    driver.advanceWallClockTime(Duration.ofMillis(100));

    assertThat(stalls.readKeyValuesToList()).extracting(stall -> stall.key).contains("quiet");
  }

  @Test
  void shouldJudgeNoStreamSilentWhileItsTaskReadsFarBehindTheEndOfItsPartition() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    final AtomicReference<Double> lag = new AtomicReference<>(5_000.0);
    inputLag.readFrom(() -> Map.of(new MetricName("records-lag", "consumer-fetch-manager-metrics", "",
        Map.of("topic", catalogue.name(Topics.TOKENS), "partition", "0")), metric(lag)));
    decisions.pipeInput("seq-3", decision("seq-3", null), START);
    tokens.pipeInput("seq-3", chunk("seq-3", 0, false, "a", "b"), START.plusMillis(10));

    // Given its consumer 5,000 records behind the end: 2.6 s without a token is its own backlog
    driver.advanceWallClockTime(Duration.ofMillis(1300));
    driver.advanceWallClockTime(Duration.ofMillis(1300));
    assertThat(stalls.isEmpty()).as("no silence judged while far behind").isTrue();

    // When it caught up, the silence is the stream's
    lag.set(0.0);
    driver.advanceWallClockTime(Duration.ofMillis(300));

    assertThat(stalls.readValuesToList()).extracting(StallDetected::getReason)
        .containsExactly("no token within 1200 ms");
  }

  private static Metric metric(final AtomicReference<Double> value) {
    return new Metric() {
      @Override
      public MetricName metricName() {
        return new MetricName("records-lag", "consumer-fetch-manager-metrics", "", Map.of());
      }

      @Override
      public Object metricValue() {
        return value.get();
      }
    };
  }

  @Test
  void shouldHandAnAttemptTheWorkerReportedFailedToABackupAsSoonAsTheReportIsRead() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    decisions.pipeInput("seq-8", decision("seq-8", null), START);
    tokens.pipeInput("seq-8", chunk("seq-8", 0, false, "a", "b"), START.plusMillis(10));
    final TokenChunk failed = chunk("seq-8", 2, false);
    failed.setFailure("CUDA out of memory on gpu-1");
    // wall clock START: no sweep has run since the decision
    tokens.pipeInput("seq-8", failed, START.plusMillis(20));

    final List<StallDetected> reported = stalls.readValuesToList();
    assertThat(reported).hasSize(1);
    assertThat(reported.get(0).getReason())
        .isEqualTo("the worker reported the attempt failed: CUDA out of memory on gpu-1");
    assertThat(reported.get(0).getNextIndex()).isEqualTo(2);
    // and the sweep that follows does not report it again
    driver.advanceWallClockTime(Duration.ofMillis(100));
    assertThat(stalls.isEmpty()).isTrue();
  }

  @Test
  void shouldReportNoStallAndEndAFailedAttemptWithAnErrorWhenCutOverIsOff() {
    driver.close();
    driver = driver(new TokenBufferConfig(Map.of(TokenBufferConfig.CUTOVER_ENABLED, false)));
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    decisions.pipeInput("seq-9", decision("seq-9", null), START);
    tokens.pipeInput("seq-9", chunk("seq-9", 0, false, "a", "b"), START.plusMillis(10));
    decisions.pipeInput("seq-10", decision("seq-10", null), START);
    tokens.pipeInput("seq-10", chunk("seq-10", 0, false, "c"), START.plusMillis(10));
    final TokenChunk failed = chunk("seq-10", 1, false);
    failed.setFailure("CUDA out of memory on gpu-1");

    // wall clock: 2600 ms without a new token on seq-9, past the 1200 ms instance timeout
    driver.advanceWallClockTime(Duration.ofMillis(1300));
    tokens.pipeInput("seq-10", failed, START.plusMillis(20));
    driver.advanceWallClockTime(Duration.ofMillis(1300));

    assertThat(stalls.isEmpty()).isTrue();
    final List<ResponseChunk> out = responses.readValuesToList();
    final ResponseChunk last = out.get(out.size() - 1);
    assertThat(last.getSequenceId()).isEqualTo("seq-10");
    assertThat(last.getLast()).isTrue();
    assertThat(last.getFinishReason()).isEqualTo("error");
    assertThat(last.getReason()).isEqualTo("the worker reported the attempt failed: CUDA out of memory on gpu-1");
    assertThat(out).filteredOn(c -> c.getSequenceId().equals("seq-9")).noneMatch(ResponseChunk::getLast);
  }

  @Test
  void shouldEndWithAnErrorAnAttemptThatFailedBeforeItsDecisionWhenCutOverIsOff() {
    driver.close();
    driver = driver(new TokenBufferConfig(Map.of(TokenBufferConfig.CUTOVER_ENABLED, false)));
    final TokenChunk failed = chunk("seq-11", 0, false);
    failed.setFailure("CUDA out of memory on gpu-1");

    tokens.pipeInput("seq-11", failed, START);
    decisions.pipeInput("seq-11", decision("seq-11", null), START.plusMillis(5));

    final List<ResponseChunk> out = responses.readValuesToList();
    assertThat(out).hasSize(1);
    assertThat(out.get(0).getLast()).isTrue();
    assertThat(out.get(0).getFinishReason()).isEqualTo("error");
    assertThat(out.get(0).getOutcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldRemoveASilentSequenceAfterTheRetentionWhenCutOverIsOff() {
    driver.close();
    driver = driver(new TokenBufferConfig(Map.of(TokenBufferConfig.CUTOVER_ENABLED, false)));
    final KeyValueStore<String, SequenceState> store = driver.getKeyValueStore(TokenBufferTopology.SEQUENCE_STORE);
    decisions.pipeInput("seq-12", decision("seq-12", null), START);
    tokens.pipeInput("seq-12", chunk("seq-12", 0, false, "a"), START.plusMillis(10));

    driver.advanceWallClockTime(CONFIG.finishedRetention().minusSeconds(1));
    assertThat(store.get("seq-12")).isNotNull();
    driver.advanceWallClockTime(Duration.ofSeconds(2));

    assertThat(store.get("seq-12")).isNull();
  }

  @Test
  void shouldCutOverEverySequenceOfAnOwnerTheHeatmapEjected() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    final TestInputTopic<String, InstanceScore> scores = driver.createInputTopic(
        catalogue.name(Topics.INSTANCE_SCORES), new StringSerializer(), serdes.value(Topics.INSTANCE_SCORES).serializer());
    decisions.pipeInput("seq-5", decision("seq-5", null), START);
    tokens.pipeInput("seq-5", chunk("seq-5", 0, false, "a", "b"), START.plusMillis(10));

    // wall clock 100 ms: tokens still flow, but the heatmap has just ejected the owner
    scores.pipeInput("gpu-1", ejected("gpu-1"), START.plusMillis(50));
    driver.advanceWallClockTime(Duration.ofMillis(100));

    final List<StallDetected> reported = stalls.readValuesToList();
    assertThat(reported).hasSize(1);
    assertThat(reported.get(0).getReason()).startsWith("owner gpu-1 ejected by the heatmap");
    assertThat(reported.get(0).getNextIndex()).isEqualTo(2);
  }

  @Test
  void shouldMoveAnAttemptWithoutATokenOffAnOwnerWhoseStreamsWentSilentTogether() {
    final TestOutputTopic<String, StallDetected> stalls = driver.createOutputTopic(catalogue.name(Topics.STALLS),
        new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
    for (final String streaming : List.of("seq-6", "seq-7")) {
      decisions.pipeInput(streaming, decision(streaming, null), START);
      tokens.pipeInput(streaming, chunk(streaming, 0, false, "a", "b"), START.plusMillis(10));
    }
    // admitted on the same engine, no token yet: the first-token timeout is 3000 ms away
    decisions.pipeInput("seq-8", decision("seq-8", null), START.plusMillis(20));

    // The sweep runs every 100 ms, from before the silence began: it times it from the tokens
    for (int i = 0; i < 14; i++) {
      driver.advanceWallClockTime(Duration.ofMillis(100));
    }

    final Map<String, String> reasons = new HashMap<>();
    stalls.readKeyValuesToList().forEach(stall -> reasons.put(stall.key, stall.value.getReason()));
    assertThat(reasons).containsOnlyKeys("seq-6", "seq-7", "seq-8");
    assertThat(reasons.get("seq-6")).isEqualTo("no token within 1200 ms");
    assertThat(reasons.get("seq-8")).startsWith("owner gpu-1 stopped");
  }

  @Test
  void shouldFindAnOwnerSilentFromStreamsThatStoppedInDifferentTasks() {
    // Two drivers of one topology are two tasks of one app: an instance's streams land on any partition.
    final Topology topology = TokenBufferTopology.build(CONFIG, catalogue, serdes, new SimpleMeterRegistry(),
        inputLag);
    try (TopologyTestDriver first = new TopologyTestDriver(topology, props("token-buffer-test-a"), START);
        TopologyTestDriver second = new TopologyTestDriver(topology, props("token-buffer-test-b"), START)) {
      final TestOutputTopic<String, StallDetected> stalls = first.createOutputTopic(catalogue.name(Topics.STALLS),
          new StringDeserializer(), serdes.value(Topics.STALLS).deserializer());
      streaming(first, "seq-6");
      streaming(second, "seq-7");
      // admitted on the same engine as both, in the first task, no token yet
      first.createInputTopic(catalogue.name(Topics.DECISIONS), new StringSerializer(),
          serdes.value(Topics.DECISIONS).serializer())
          .pipeInput("seq-8", decision("seq-8", null), START.plusMillis(20));

      for (int i = 0; i < 15; i++) {
        first.advanceWallClockTime(Duration.ofMillis(100));
        second.advanceWallClockTime(Duration.ofMillis(100));
      }

      final Map<String, String> reasons = new HashMap<>();
      stalls.readKeyValuesToList().forEach(stall -> reasons.put(stall.key, stall.value.getReason()));
      assertThat(reasons).containsOnlyKeys("seq-6", "seq-8");
      assertThat(reasons.get("seq-8")).startsWith("owner gpu-1 stopped");
    }
  }

  private void streaming(final TopologyTestDriver task, final String sequenceId) {
    task.createInputTopic(catalogue.name(Topics.DECISIONS), new StringSerializer(),
        serdes.value(Topics.DECISIONS).serializer()).pipeInput(sequenceId, decision(sequenceId, null), START);
    task.createInputTopic(catalogue.name(Topics.TOKENS), new StringSerializer(),
        serdes.value(Topics.TOKENS).serializer())
        .pipeInput(sequenceId, chunk(sequenceId, 0, false, "a", "b"), START.plusMillis(10));
  }

  /** A driver's settings: its own application id gives it its own state directory. */
  private static Properties props(final String applicationId) {
    final Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    return props;
  }

  private static InstanceScore ejected(final String instanceId) {
    return InstanceScore.newBuilder().setInstanceId(instanceId).setZone("zone-a").setModel("sim-8b")
        .setState(InstanceState.EJECTED).setWeight(0.0).setReason("fragmentation 99.0% > 92% for 3000 ms")
        .setWarmupLevel(1.0).setGpuUtilization(0.5).setVramFragmentation(0.99).setTokenIntervalStddevMs(4.0)
        .setTcpRetransmitRate(0.0).setQueueLength(0).setRunningRequests(1).setDecodeTokensPerS(50.0)
        .setLatencyModel(LatencyModel.newBuilder().setLatencyInterceptMs(40).setLatencyPerInputTokenMs(0.1)
            .setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40).setTtftPerInputTokenMs(0.1).setSamples(0).build())
        .setLastTelemetryMs(START.toEpochMilli()).setUpdatedAtMs(START.toEpochMilli()).build();
  }

  @Test
  void shouldRemoveAFinishedSequenceAndItsTokensAfterTheRetention() {
    final KeyValueStore<String, SequenceState> store = driver.getKeyValueStore(TokenBufferTopology.SEQUENCE_STORE);
    final KeyValueStore<String, TokenRun> runs = driver.getKeyValueStore(TokenBufferTopology.TOKEN_STORE);
    decisions.pipeInput("seq-4", decision("seq-4", null), START);
    tokens.pipeInput("seq-4", chunk("seq-4", 0, true, "done"), START.plusMillis(10));
    assertThat(store.get("seq-4")).isNotNull();
    assertThat(runs.approximateNumEntries()).isEqualTo(1);

    driver.advanceWallClockTime(CONFIG.finishedRetention().plusSeconds(1));

    assertThat(store.get("seq-4")).isNull();
    assertThat(runs.approximateNumEntries()).isZero();
  }

  @Test
  void shouldExpireTheFinishedSequencesAFewAtATimeSweepAfterSweep() {
    final KeyValueStore<String, SequenceState> store = driver.getKeyValueStore(TokenBufferTopology.SEQUENCE_STORE);
    final int finished = 2 * SequenceSweeper.EXPIRY_BATCH + 1;
    for (int i = 0; i < finished; i++) {
      final String id = String.format(Locale.ROOT, "done-%04d", i);
      decisions.pipeInput(id, decision(id, null), START);
      tokens.pipeInput(id, chunk(id, 0, true, "done"), START.plusMillis(10));
    }
    decisions.pipeInput("live", decision("live", null), START);
    tokens.pipeInput("live", chunk("live", 0, false, "a"), START.plusMillis(10));

    // One sweep looks at one batch of the store, in key order: the live sequence is kept.
    driver.advanceWallClockTime(CONFIG.finishedRetention().plusSeconds(1));
    assertThat(count(store)).isEqualTo(finished + 1 - SequenceSweeper.EXPIRY_BATCH);
    driver.advanceWallClockTime(CONFIG.stallCheckInterval());
    driver.advanceWallClockTime(CONFIG.stallCheckInterval());

    assertThat(store.get("live")).isNotNull();
    assertThat(count(store)).isEqualTo(1);
  }

  private static long count(final KeyValueStore<String, SequenceState> store) {
    try (KeyValueIterator<String, SequenceState> all = store.all()) {
      long entries = 0;
      for (; all.hasNext(); all.next()) {
        entries++;
      }
      return entries;
    }
  }

  @Test
  void shouldWriteAboutAChunksOwnSizeToTheChangelogsHoweverLongTheSequenceIs() {
    decisions.pipeInput("seq-5", decision("seq-5", null), START);
    final List<Integer> bytesPerChunk = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      tokens.pipeInput("seq-5", chunk("seq-5", 4 * i, false, " one", " two", " six", " ten"), START.plusMillis(i));
      bytesPerChunk.add(changelogBytes(TokenBufferTopology.SEQUENCE_STORE)
          + changelogBytes(TokenBufferTopology.TOKEN_STORE));
    }

    // Both stores write one record per chunk; the last of 4,000 tokens costs what the first did.
    assertThat(bytesPerChunk.get(999)).isBetween(bytesPerChunk.get(10) - 8, bytesPerChunk.get(10) + 8);
    assertThat(responses.readValuesToList().stream().mapToInt(c -> c.getTokens().size()).sum()).isEqualTo(4_000);
  }

  /** The bytes (keys and values) written to a store's changelog since the last call. */
  private int changelogBytes(final String store) {
    final TestOutputTopic<byte[], byte[]> changelog = driver.createOutputTopic("token-buffer-test-" + store
        + "-changelog", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    return changelog.readKeyValuesToList().stream().mapToInt(r -> r.key.length + r.value.length).sum();
  }

  private static RoutingDecision decision(final String sequenceId, final String replyTopic) {
    return RoutingDecision.newBuilder()
        .setSequenceId(sequenceId).setEpoch(1).setInstanceId("gpu-1").setOutcome(RoutingOutcome.DIRECT)
        .setReason("lowest cost").setTraceId("t-" + sequenceId).setRouterId("r1").setReplyTopic(replyTopic)
        .setDecidedAtMs(START.toEpochMilli()).build();
  }

  private static TokenChunk chunk(final String sequenceId, final int start, final boolean last,
      final String... words) {
    return TokenChunk.newBuilder()
        .setSequenceId(sequenceId).setEpoch(1).setInstanceId("gpu-1").setStartIndex(start)
        .setTokens(List.of(words)).setLast(last).setFinishReason(last ? "stop" : null)
        .setEmittedAtMs(START.toEpochMilli()).build();
  }
}
