package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the latest value per key of a compacted topic in a global store (a tombstone removes
 * it). Values are decoded here rather than by the source: Kafka Streams cannot dead-letter a
 * record its global thread fails to read, so a value that cannot be read is skipped with a
 * warning (the topic's own readers dead-letter it, and the key's next record replaces it).
 *
 * @param <V> the value type
 */
public final class KeepLatestProcessor<V> implements Processor<String, byte[], Void, Void> {

  private static final Logger LOG = LoggerFactory.getLogger(KeepLatestProcessor.class);

  private final String storeName;
  private final String topic;
  private final Deserializer<V> values;
  private KeyValueStore<String, V> store;

  public KeepLatestProcessor(final String storeName, final String topic, final Deserializer<V> values) {
    this.storeName = requireNonNull(storeName, "storeName");
    this.topic = requireNonNull(topic, "topic");
    this.values = requireNonNull(values, "values");
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
      store.put(record.key(), values.deserialize(topic, record.headers(), record.value()));
    } catch (final SerializationException e) {
      LOG.warn("Skipping an unreadable record of {} on {}: {}", record.key(), topic, e.getMessage());
    }
  }
}
