package io.zerolayer.fleet.load;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the response topic from its end as a client does (committed records only) and notes
 * when each chunk of a watched sequence became readable, which the client library's whole
 * responses do not tell.
 */
final class ChunkTimes implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ChunkTimes.class);

  private final KafkaConsumer<String, ResponseChunk> consumer;
  private final ChunkLedger ledger = new ChunkLedger();
  private final LongSupplier nanoClock;
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final Thread reader;
  private volatile boolean running = true;

  ChunkTimes(final ClusterSettings cluster, final ContractSerdes serdes, final LongSupplier nanoClock)
      throws InterruptedException {
    this.nanoClock = nanoClock;
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // Chunk arrival times are the measurement: an idle fetch must not hold a chunk back.
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
    final String topic = cluster.catalogue().name(Topics.RESPONSES);
    reader = new Thread(() -> read(topic), "load-chunk-times");
    reader.setDaemon(true);
    reader.start();
    positioned.await();
    final Throwable failure = ledger.failure();
    if (failure != null) {
      close();
      throw new IllegalStateException("Cannot read responses: " + failure.getMessage(), failure);
    }
  }

  ChunkLedger ledger() {
    return ledger;
  }

  private void read(final String topic) {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      if (partitions.isEmpty()) {
        throw new IllegalStateException("Response topic " + topic + " does not exist; provision the topics first");
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      positioned.countDown();
      while (running) {
        poll();
      }
    } catch (final WakeupException e) {
      ledger.failAll(new IllegalStateException("the sender was closed before the response was complete"));
    } catch (final RuntimeException e) {
      LOG.error("Chunk reader stopped: {}", e.toString(), e);
      ledger.failAll(e);
    } finally {
      positioned.countDown();
      consumer.close();
    }
  }

  private void poll() {
    try {
      for (final ConsumerRecord<String, ResponseChunk> record : consumer.poll(Duration.ofMillis(100))) {
        ledger.accept(record.value(), nanoClock.getAsLong());
      }
    } catch (final RecordDeserializationException e) {
      if (SchemaRegistryUnavailableException.causedBy(e)) {
        // The record is fine; the registry is down. Read it again on the next poll.
        consumer.seek(e.topicPartition(), e.offset());
        return;
      }
      LOG.warn("Skipping an unreadable response record at {}@{}: {}", e.topicPartition(), e.offset(), e.getMessage());
      consumer.seek(e.topicPartition(), e.offset() + 1);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    reader.join(Duration.ofSeconds(5).toMillis());
  }
}
