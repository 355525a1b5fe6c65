package io.zerolayer.heatmap;

import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.DeadLetterInvalidRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The heatmap topology in a TopologyTestDriver, with helpers that feed telemetry the way an
 * instance does: one sample every 50 ms, the wall clock moving with it.
 */
final class HeatmapDriver implements AutoCloseable {

  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  static final long SAMPLE_MS = 50;

  final HeatmapConfig config;
  final TopicCatalogue catalogue = TopicCatalogue.unprefixed();
  final ContractSerdes serdes = ContractSerdes.inMemory();
  final TopologyTestDriver driver;
  final TestInputTopic<String, InstanceTelemetry> telemetry;
  final TestInputTopic<String, Completion> completions;
  final TestOutputTopic<String, InstanceScore> scores;
  final TestOutputTopic<String, CloudEvent> events;
  final TestOutputTopic<String, InstanceCommand> commands;
  final TestOutputTopic<byte[], byte[]> deadLetters;
  private final Path stateDir = stateDir();
  private long nowMs = START.toEpochMilli();

  HeatmapDriver(final Map<String, Object> overrides) {
    final Map<String, Object> values = new HashMap<>(Map.of(HeatmapConfig.EMIT_INTERVAL_MS, 200L));
    values.putAll(overrides);
    config = new HeatmapConfig(values);
    final Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "heatmap-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterInvalidRecords.class);
    props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, catalogue.name(Topics.TELEMETRY_DLQ));
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    // The driver runs every partition in one task, so that task reports every zone.
    driver = new TopologyTestDriver(HeatmapTopology.build(config, catalogue, serdes, new SimpleMeterRegistry(), 1),
        props, START);
    telemetry = driver.createInputTopic(catalogue.name(Topics.TELEMETRY), new StringSerializer(),
        serdes.value(Topics.TELEMETRY).serializer());
    completions = driver.createInputTopic(catalogue.name(Topics.COMPLETIONS), new StringSerializer(),
        serdes.value(Topics.COMPLETIONS).serializer());
    scores = driver.createOutputTopic(catalogue.name(Topics.INSTANCE_SCORES), new StringDeserializer(),
        serdes.value(Topics.INSTANCE_SCORES).deserializer());
    events = driver.createOutputTopic(catalogue.name(Topics.STATUS_CHANGED), new StringDeserializer(),
        new CloudEventDeserializer());
    commands = driver.createOutputTopic(catalogue.name(Topics.COMMANDS), new StringDeserializer(),
        serdes.value(Topics.COMMANDS).deserializer());
    deadLetters = driver.createOutputTopic(catalogue.name(Topics.TELEMETRY_DLQ), new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  /** The wall clock (and sample clock) now. */
  long now() {
    return nowMs;
  }

  /** Sends one sample of each instance, taken now, then moves the clock 50 ms. */
  void tick(final List<InstanceTelemetry> samples) {
    samples.forEach(sample -> telemetry.pipeInput(sample.getInstanceId(), sample, nowMs));
    advance(Duration.ofMillis(SAMPLE_MS));
  }

  /** Sends samples of one instance every 50 ms for {@code duration}. */
  void feed(final String instance, final UnaryOperator<InstanceTelemetry.Builder> shape, final Duration duration) {
    for (long t = 0; t < duration.toMillis(); t += SAMPLE_MS) {
      tick(List.of(shape.apply(healthy(instance, nowMs)).build()));
    }
  }

  /** Moves the wall clock in steps of at most one sample interval, as a running app sees it; punctuations run. */
  void advance(final Duration duration) {
    for (long left = duration.toMillis(); left > 0; left -= SAMPLE_MS) {
      pause(Duration.ofMillis(Math.min(SAMPLE_MS, left)));
    }
  }

  /** Moves the wall clock in one jump, as an app that was paused (a GC, a starved thread) sees it. */
  void pause(final Duration duration) {
    nowMs += duration.toMillis();
    driver.advanceWallClockTime(duration);
  }

  /** Every score row published since the last call. */
  List<InstanceScore> rows() {
    return scores.readValuesToList();
  }

  /** The latest row of an instance published since the last call, or null. */
  InstanceScore latest(final String instance) {
    InstanceScore last = null;
    for (final InstanceScore row : rows()) {
      if (row.getInstanceId().equals(instance)) {
        last = row;
      }
    }
    return last;
  }

  List<CloudEvent> statusEvents() {
    final List<CloudEvent> all = new ArrayList<>();
    events.readRecordsToList().stream().map(TestRecord::value).forEach(all::add);
    return all;
  }

  /** The new states of one instance's status events since the last read of the events. */
  List<String> instanceStates(final String instance) {
    return statusEvents().stream().filter(event -> instance.equals(event.getSubject()))
        .map(event -> StalenessAndCadenceTest.data(event).get("newState").asText()).toList();
  }

  /** A sample of a healthy, warm, lightly loaded instance in zone-a. */
  static InstanceTelemetry.Builder healthy(final String instance, final long timeMs) {
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instance).setZone("zone-a").setModel("sim-8b").setSampleTimeMs(timeMs)
        .setGpuUtilization(0.5).setVramUsedBytes(40L << 30).setVramFragmentation(0.1)
        .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.001)
        .setQueueLength(0).setRunningRequests(2).setDecodeTokensPerS(900).setTokenIntervalStddevMs(4.0)
        .setAllocationErrors(0);
  }

  private static Path stateDir() {
    try {
      return Files.createTempDirectory("heatmap-test");
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.close();
    try {
      Utils.delete(stateDir.toFile());
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
