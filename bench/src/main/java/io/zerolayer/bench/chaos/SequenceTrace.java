package io.zerolayer.bench.chaos;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Every committed record of some sequences on the pipeline's topics, topic by topic in the order
 * each partition holds them: what tells where an unanswered sequence stopped.
 */
final class SequenceTrace {

  private static final List<Topic<String, ? extends SpecificRecord>> TOPICS = List.of(Topics.REQUESTS,
      Topics.DECISIONS, Topics.DISPATCH, Topics.COMMANDS, Topics.TOKENS, Topics.STALLS, Topics.SEQUENCE_HOLDS,
      Topics.COMPLETIONS, Topics.RESPONSES);
  private static final int MAX_VALUE_CHARS = 400;
  private static final Duration READ_TIMEOUT = Duration.ofMinutes(2);

  private SequenceTrace() {
  }

  /** Writes the records of {@code sequenceIds} to {@code file}, grouped by sequence. */
  static void write(final ClusterSettings settings, final ContractSerdes serdes, final Set<String> sequenceIds,
      final Path file) throws IOException {
    final Map<String, List<String>> lines = new LinkedHashMap<>();
    sequenceIds.stream().sorted().forEach(id -> lines.put(id, new ArrayList<>()));
    final Map<String, Object> props = new HashMap<>(settings.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        new ByteArrayDeserializer())) {
      for (final Topic<String, ? extends SpecificRecord> topic : TOPICS) {
        read(consumer, settings.catalogue().name(topic), record -> {
          if (record.key() != null && lines.containsKey(record.key())) {
            lines.get(record.key()).add(describe(serdes, topic, record));
          }
        });
      }
    }
    final List<String> out = new ArrayList<>();
    lines.forEach((id, records) -> {
      out.add("== " + id + " (" + records.size() + " committed records)");
      out.addAll(records);
    });
    Files.write(file, out);
  }

  private static void read(final KafkaConsumer<String, byte[]> consumer, final String topic,
      final Consumer<ConsumerRecord<String, byte[]>> sink) {
    final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
    final long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Reading " + topic + " to its end took over " + READ_TIMEOUT.toSeconds()
            + " s; is every partition's leader up?");
      }
      consumer.poll(Duration.ofMillis(200)).forEach(sink);
    }
  }

  private static String describe(final ContractSerdes serdes, final Topic<String, ? extends SpecificRecord> topic,
      final ConsumerRecord<String, byte[]> record) {
    String value;
    if (record.value() == null) {
      value = "tombstone";
    } else {
      try {
        value = String.valueOf(serdes.value(topic.valueType()).deserializer().deserialize(record.topic(), record.value()));
      } catch (final RuntimeException e) {
        value = "unreadable: " + e.getMessage();
      }
    }
    if (value.length() > MAX_VALUE_CHARS) {
      value = value.substring(0, MAX_VALUE_CHARS) + "...";
    }
    return "%s %s-%d@%d %s".formatted(Instant.ofEpochMilli(record.timestamp()), record.topic(), record.partition(),
        record.offset(), value);
  }
}
