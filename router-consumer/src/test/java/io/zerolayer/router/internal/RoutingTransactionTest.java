package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RoutingTransactionTest {

  private static final TopicPartition REQUESTS = new TopicPartition("requests", 2);
  private static final Duration LONG = Duration.ofHours(1);

  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
      new ByteArraySerializer());
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<Boolean> settled = new ArrayList<>();

  @BeforeEach
  void setUp() {
    consumer.assign(List.of(REQUESTS));
    consumer.updateBeginningOffsets(Map.of(REQUESTS, 0L));
    consumer.seek(REQUESTS, 14);
    producer.initTransactions();
  }

  @Test
  void shouldSendWhatItRoutesAtOnceAndCommitTheOffsetsOfEveryPollOnceTheIntervalHasPassed() {
    final RoutingTransaction transaction = transaction(producer, LONG);

    transaction.route(batch(10, 11), this::forward);
    transaction.route(batch(12, 13), this::forward);
    transaction.commitIfDue();

    assertThat(producer.uncommittedRecords()).as("sent as routed, before any commit").hasSize(4);
    assertThat(producer.transactionCommitted()).as("not due for an hour").isFalse();
    assertThat(transaction.pollTimeout(Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(100));
    assertThat(settled).isEmpty();

    transaction.commit();

    assertThat(producer.transactionCommitted()).isTrue();
    assertThat(producer.consumerGroupOffsetsHistory()).hasSize(1);
    assertThat(producer.consumerGroupOffsetsHistory().get(0).values().iterator().next())
        .containsEntry(REQUESTS, new OffsetAndMetadata(14));
    assertThat(settled).containsExactly(true);
    assertThat(registry.get("zerolayer.router.transaction.records").summary().totalAmount()).isEqualTo(4);
  }

  @Test
  void shouldCommitEveryPollWithAZeroInterval() {
    final RoutingTransaction transaction = transaction(producer, Duration.ZERO);

    transaction.route(batch(10, 11), this::forward);
    assertThat(transaction.pollTimeout(Duration.ofMillis(100))).isZero();
    transaction.commitIfDue();

    assertThat(producer.transactionCommitted()).isTrue();
    assertThat(settled).containsExactly(true);
  }

  @Test
  void shouldSendEveryRoutedRecordBeforeItAddsTheOffsets() {
    // A producer that sends only when flushed, as a real one with a transactional request in flight
    final List<Future<RecordMetadata>> sent = new ArrayList<>();
    final List<Boolean> allSentAtOffsets = new ArrayList<>();
    final MockProducer<byte[], byte[]> lazy = new MockProducer<>(false, null, new ByteArraySerializer(),
        new ByteArraySerializer()) {
      @Override
      public void sendOffsetsToTransaction(final Map<TopicPartition, OffsetAndMetadata> offsets,
          final ConsumerGroupMetadata group) {
        allSentAtOffsets.add(sent.stream().allMatch(Future::isDone));
        super.sendOffsetsToTransaction(offsets, group);
      }
    };
    lazy.initTransactions();
    final RoutingTransaction transaction = transaction(lazy, Duration.ZERO);

    transaction.route(batch(10, 11),
        (record, out) -> sent.add(out.send(new ProducerRecord<>("dispatch", record.key(), record.value()))));
    transaction.commitIfDue();

    assertThat(settled).containsExactly(true);
    assertThat(allSentAtOffsets).as("every dispatch sent when the offsets went").containsExactly(true);
  }

  @Test
  void shouldAbortAndReadEveryPollOfTheTransactionAgainWhenTheCommitFailsWithAnAbortableError() {
    producer.commitTransactionException = new TransactionAbortableException("the coordinator moved");
    final RoutingTransaction transaction = transaction(producer, LONG);

    transaction.route(batch(10, 11), this::forward);
    transaction.route(batch(12, 13), this::forward);
    transaction.commit();

    assertThat(producer.transactionAborted()).isTrue();
    assertThat(producer.history()).as("nothing of it is visible").isEmpty();
    assertThat(consumer.position(REQUESTS)).as("back to the transaction's first record").isEqualTo(10);
    assertThat(settled).containsExactly(false);
    assertThat(registry.get("zerolayer.router.transaction.aborted").counter().count()).isEqualTo(1);
  }

  @Test
  void shouldAbortAndReadAgainWhenRoutingFailsAndBeginAFreshTransactionAfter() {
    final RoutingTransaction transaction = transaction(producer, Duration.ZERO);

    transaction.route(batch(10, 11), (record, out) -> {
      throw new KafkaException("the registry is away");
    });
    assertThat(settled).containsExactly(false);
    assertThat(consumer.position(REQUESTS)).isEqualTo(10);

    transaction.route(batch(10, 11), this::forward);
    transaction.commitIfDue();
    assertThat(settled).containsExactly(false, true);
    assertThat(producer.history()).hasSize(2);
  }

  @Test
  void shouldCommitBeforeItsPartitionsAreRevokedAndAbortWhenTheyWereLost() {
    final List<String> told = new ArrayList<>();
    final RoutingTransaction transaction = transaction(producer, LONG);
    final ConsumerRebalanceListener listener = transaction.committingBefore(new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
        told.add("revoked after " + settled);
      }

      @Override
      public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
        told.add("assigned");
      }

      @Override
      public void onPartitionsLost(final Collection<TopicPartition> partitions) {
        told.add("lost after " + settled);
      }
    });

    transaction.route(batch(10, 11), this::forward);
    listener.onPartitionsRevoked(List.of(REQUESTS));
    transaction.route(batch(12, 13), this::forward);
    listener.onPartitionsLost(List.of(REQUESTS));
    listener.onPartitionsAssigned(List.of(REQUESTS));

    assertThat(told).containsExactly("revoked after [true]", "lost after [true, false]", "assigned");
    assertThat(producer.history()).as("the first transaction's records only").hasSize(2);
  }

  @Test
  void shouldStopWhenAnotherRouterWithItsIdFencedIt() {
    producer.commitTransactionException = new ProducerFencedException("a newer router-a started");
    final RoutingTransaction transaction = transaction(producer, Duration.ZERO);
    transaction.route(batch(10, 11), this::forward);

    assertThatThrownBy(transaction::commitIfDue).isInstanceOf(ProducerFencedException.class);
  }

  private RoutingTransaction transaction(final Producer<byte[], byte[]> out, final Duration interval) {
    return new RoutingTransaction(consumer, out, new TransactionMeters(registry), interval, settled::add);
  }

  private void forward(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    out.send(new ProducerRecord<>("decisions", record.key(), record.value()));
  }

  /** Two consecutive records of the partition, as a poll returned them. */
  private static ConsumerRecords<byte[], byte[]> batch(final long first, final long second) {
    return new ConsumerRecords<>(Map.of(REQUESTS, List.of(
        new ConsumerRecord<>(REQUESTS.topic(), REQUESTS.partition(), first, new byte[] {1}, new byte[] {1}),
        new ConsumerRecord<>(REQUESTS.topic(), REQUESTS.partition(), second, new byte[] {2}, new byte[] {2}))),
        Map.of());
  }
}
