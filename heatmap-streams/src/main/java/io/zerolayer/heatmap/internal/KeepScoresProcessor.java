package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every published heatmap row in the global store (a tombstone removes it). Rows are
 * decoded here rather than by the source: Kafka Streams cannot dead-letter a record its global
 * thread fails to read, and a row that cannot be read is only skipped (the routers dead-letter
 * it, and the next emission of that instance replaces it).
 */
public final class KeepScoresProcessor implements Processor<String, byte[], Void, Void> {

  private static final Logger LOG = LoggerFactory.getLogger(KeepScoresProcessor.class);

  private final String storeName;
  private final String topic;
  private final Deserializer<InstanceScore> rows;
  private KeyValueStore<String, InstanceScore> store;

  public KeepScoresProcessor(final String storeName, final String topic, final Deserializer<InstanceScore> rows) {
    this.storeName = requireNonNull(storeName, "storeName");
    this.topic = requireNonNull(topic, "topic");
    this.rows = requireNonNull(rows, "rows");
  }

  @Override
  public void init(final ProcessorContext<Void, Void> context) {
    store = context.getStateStore(storeName);
  }

  @Override
  public void process(final Record<String, byte[]> record) {
    if (record.key() == null) {
      return;
    }
    if (record.value() == null) {
      store.delete(record.key());
      return;
    }
    try {
      store.put(record.key(), rows.deserialize(topic, record.headers(), record.value()));
    } catch (final SerializationException e) {
      LOG.warn("Skipping an unreadable heatmap row of {} on {}: {}", record.key(), topic, e.getMessage());
    }
  }
}
