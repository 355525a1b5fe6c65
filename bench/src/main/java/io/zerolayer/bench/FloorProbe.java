package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.Topic.Cleanup;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.topics.PartitionReadiness;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The floor: one plain Kafka hop on the same broker, at the same moments as the load. A producer
 * writes a 200-byte record (acks=all, no linger) and a consumer that reads as the client does
 * (committed records only) notes when it arrives; each record carries its send time.
 */
final class FloorProbe implements AutoCloseable {

  /** The probe's own topic, one per catalogue prefix, with as many partitions as the response topic. */
  static final Topic<byte[], byte[]> FLOOR = new Topic<>("bench.floor.v1", byte[].class, byte[].class,
      Topics.RESPONSES.partitions(), Cleanup.DELETE, Duration.ofHours(1));
  private static final int RECORD_BYTES = 200;

  private final KafkaProducer<byte[], byte[]> producer;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<long[]> hops = new ArrayList<>();
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final Thread reader;
  private final String topic;
  private volatile boolean running = true;
  private long sent;

  FloorProbe(final ClusterSettings cluster) throws Exception {
    requireNonNull(cluster, "cluster");
    topic = cluster.catalogue().name(FLOOR);
    create(cluster);
    final Map<String, Object> producerProps = new HashMap<>(cluster.clientProperties());
    producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
    final Map<String, Object> consumerProps = new HashMap<>(cluster.clientProperties());
    consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    reader = new Thread(this::read, "floor-probe");
    reader.start();
    positioned.await();
  }

  private void create(final ClusterSettings cluster) throws Exception {
    try (Admin admin = Admin.create(cluster.clientProperties())) {
      admin.createTopics(List.of(new NewTopic(topic, Optional.of(FLOOR.partitions()), Optional.empty())))
          .all().get(30, TimeUnit.SECONDS);
      new PartitionReadiness(admin, Duration.ofSeconds(30)).await(List.of(topic));
    }
  }

  private void read() {
    try {
      final List<TopicPartition> partitions = new ArrayList<>();
      while (partitions.isEmpty()) {
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      positioned.countDown();
      while (running) {
        for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          final long now = System.currentTimeMillis();
          final long sentAt = ByteBuffer.wrap(record.value()).getLong();
          synchronized (hops) {
            hops.add(new long[] {sentAt, now - sentAt});
          }
        }
      }
    } catch (final WakeupException e) {
      // closing
    } finally {
      positioned.countDown();
      consumer.close();
    }
  }

  /** Sends one record now, keyed like a sequence, so it spreads over the partitions as requests do. */
  void send(final String key) {
    final ByteBuffer value = ByteBuffer.allocate(RECORD_BYTES);
    value.putLong(System.currentTimeMillis());
    producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value.array()));
    sent++;
  }

  /** Every hop whose record was sent in [fromMs, toMs), in milliseconds. */
  List<Long> hopsSentBetween(final long fromMs, final long toMs) {
    synchronized (hops) {
      return hops.stream().filter(h -> h[0] >= fromMs && h[0] < toMs).map(h -> h[1]).toList();
    }
  }

  /** Waits until every record sent has been read, or the timeout passes. */
  void awaitAll(final Duration timeout) throws InterruptedException {
    producer.flush();
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline && received() < sent) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  private int received() {
    synchronized (hops) {
      return hops.size();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    reader.join();
    producer.close(Duration.ofSeconds(5));
  }
}
