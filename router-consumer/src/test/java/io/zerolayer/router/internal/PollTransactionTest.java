package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PollTransactionTest {

  private static final TopicPartition REQUESTS = new TopicPartition("requests", 2);

  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
      new ByteArraySerializer());
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PollTransaction transaction = new PollTransaction(consumer, producer, new TransactionMeters(registry));

  @BeforeEach
  void setUp() {
    consumer.assign(List.of(REQUESTS));
    consumer.updateBeginningOffsets(Map.of(REQUESTS, 0L));
    consumer.seek(REQUESTS, 12);
    producer.initTransactions();
  }

  @Test
  void shouldCommitTheRoutedRecordsWithTheConsumedOffsets() {
    assertThat(transaction.run(batch(), this::forward)).isTrue();

    assertThat(producer.transactionCommitted()).isTrue();
    assertThat(producer.history()).hasSize(2);
    assertThat(producer.consumerGroupOffsetsHistory().get(0).values().iterator().next())
        .containsEntry(REQUESTS, new OffsetAndMetadata(12));
  }

  @Test
  void shouldHaveTheRoutedRecordsSentBeforeItCommitsTheConsumedOffsets() {
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

    final boolean committed = new PollTransaction(consumer, lazy, new TransactionMeters(registry)).run(batch(),
        (record, out) -> sent.add(out.send(new ProducerRecord<>("dispatch", record.key(), record.value()))));

    assertThat(committed).isTrue();
    assertThat(allSentAtOffsets).as("every dispatch sent when the offsets went").containsExactly(true);
  }

  @Test
  void shouldAbortAndReadTheBatchAgainWhenTheCommitFailsWithAnAbortableError() {
    producer.commitTransactionException = new TransactionAbortableException("the coordinator moved");

    assertThat(transaction.run(batch(), this::forward)).isFalse();

    assertThat(producer.transactionAborted()).isTrue();
    assertThat(producer.history()).as("nothing of it is visible").isEmpty();
    assertThat(consumer.position(REQUESTS)).as("back to the batch's first record").isEqualTo(10);
    assertThat(registry.get("zerolayer.router.transaction.aborted").counter().count()).isEqualTo(1);
  }

  @Test
  void shouldStopWhenAnotherRouterWithItsIdFencedIt() {
    producer.commitTransactionException = new ProducerFencedException("a newer router-a started");

    assertThatThrownBy(() -> transaction.run(batch(), this::forward)).isInstanceOf(ProducerFencedException.class);
  }

  private void forward(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    out.send(new ProducerRecord<>("decisions", record.key(), record.value()));
  }

  /** Records 10 and 11 of the partition, as a poll returned them (the consumer stands after them). */
  private static ConsumerRecords<byte[], byte[]> batch() {
    return new ConsumerRecords<>(Map.of(REQUESTS, List.of(
        new ConsumerRecord<>(REQUESTS.topic(), REQUESTS.partition(), 10, new byte[] {1}, new byte[] {1}),
        new ConsumerRecord<>(REQUESTS.topic(), REQUESTS.partition(), 11, new byte[] {2}, new byte[] {2}))),
        Map.of());
  }
}
