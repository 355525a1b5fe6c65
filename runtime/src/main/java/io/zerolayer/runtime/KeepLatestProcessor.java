package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
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
 * record its global thread fails to read, and cannot replace a global thread that failed. So a
 * value that cannot be read is skipped with a warning (the topic's own readers dead-letter it,
 * and the key's next record replaces it), and a schema registry that does not answer is waited
 * for, with growing pauses, while the global store stays as it was.
 *
 * @param <V> the value type
 */
public final class KeepLatestProcessor<V> implements Processor<String, byte[], Void, Void> {

  private static final Logger LOG = LoggerFactory.getLogger(KeepLatestProcessor.class);
  private static final long FIRST_PAUSE_MS = 100;
  private static final long MAX_PAUSE_MS = 5_000;

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
    long pauseMs = FIRST_PAUSE_MS;
    while (true) {
      try {
        store.put(record.key(), values.deserialize(topic, record.headers(), record.value()));
        return;
      } catch (final SchemaRegistryUnavailableException e) {
        LOG.warn("Cannot read a record of {} on {} while the schema registry is unavailable; trying again in {} ms: {}",
            record.key(), topic, pauseMs, e.getMessage());
        pause(pauseMs);
        pauseMs = Math.min(MAX_PAUSE_MS, 2 * pauseMs);
      } catch (final SerializationException e) {
        LOG.warn("Skipping an unreadable record of {} on {}: {}", record.key(), topic, e.getMessage());
        return;
      }
    }
  }

  private static void pause(final long ms) {
    try {
      Thread.sleep(ms);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the schema registry", e);
    }
  }
}
