package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.testing.GoldenFile;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HeatmapTopologyTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final HeatmapConfig config = new HeatmapConfig(Map.of(HeatmapConfig.EMIT_INTERVAL_MS, 200L));
  private final TopicCatalogue catalogue = TopicCatalogue.unprefixed();
  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private TopologyTestDriver driver;
  private TestInputTopic<String, InstanceTelemetry> telemetry;
  private TestOutputTopic<String, InstanceScore> scores;

  @BeforeEach
  void setUp() {
    final Topology topology = HeatmapTopology.build(config, catalogue, serdes, new SimpleMeterRegistry());
    final Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "heatmap-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver = new TopologyTestDriver(topology, props, START);
    telemetry = driver.createInputTopic(catalogue.name(Topics.TELEMETRY), new StringSerializer(),
        serdes.value(Topics.TELEMETRY).serializer());
    scores = driver.createOutputTopic(catalogue.name(Topics.INSTANCE_SCORES), new StringDeserializer(),
        serdes.value(Topics.INSTANCE_SCORES).deserializer());
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  @Test
  void shouldMatchTheCheckedInTopologyDescription() throws Exception {
    GoldenFile.assertMatches("heatmap-topology.txt",
        HeatmapTopology.build(config, catalogue, serdes, new SimpleMeterRegistry()).describe().toString());
  }

  @Test
  void shouldPublishOneRowPerInstanceAndEmitIntervalNotOnePerSample() {
    // stream time: four samples 50 ms apart, all inside one 200 ms emit interval
    for (int i = 0; i < 4; i++) {
      telemetry.pipeInput("gpu-1", sample("gpu-1", 0.10, START.toEpochMilli() + 50L * i), START.plusMillis(50L * i));
    }
    assertThat(scores.isEmpty()).isTrue();

    driver.advanceWallClockTime(config.emitInterval());

    final var rows = scores.readKeyValuesToList();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).value.getState()).isEqualTo(InstanceState.HEALTHY);
    assertThat(rows.get(0).value.getWeight()).isEqualTo(1.0);
    assertThat(rows.get(0).value.getLastTelemetryMs()).isEqualTo(START.toEpochMilli() + 150);
  }

  @Test
  void shouldNotRepublishAnInstanceWhoseRowDidNotChange() {
    telemetry.pipeInput("gpu-1", sample("gpu-1", 0.10, START.toEpochMilli()), START);
    driver.advanceWallClockTime(config.emitInterval());
    assertThat(scores.readKeyValuesToList()).hasSize(1);

    driver.advanceWallClockTime(config.emitInterval());

    assertThat(scores.isEmpty()).isTrue();
  }

  @Test
  void shouldGiveZeroWeightToAnInstanceAbove92PercentFragmentation() {
    telemetry.pipeInput("gpu-2", sample("gpu-2", 0.99, START.toEpochMilli()), START);

    driver.advanceWallClockTime(Duration.ofMillis(200));

    final InstanceScore row = scores.readValue();
    assertThat(row.getWeight()).isZero();
    assertThat(row.getReason()).contains("fragmentation 99.0%");
  }

  static InstanceTelemetry sample(final String instance, final double fragmentation, final long timeMs) {
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instance).setZone("zone-a").setModel("sim-7b").setSampleTimeMs(timeMs)
        .setGpuUtilization(0.5).setVramUsedBytes(40L << 30).setVramFragmentation(fragmentation)
        .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.0)
        .setQueueLength(0).setRunningRequests(2).setDecodeTokensPerS(900).setTokenIntervalStddevMs(4.0)
        .setAllocationErrors(0)
        .build();
  }
}
