package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One poll's records in one Kafka transaction: everything their routing writes, and the
 * consumed offsets. A transaction that fails, or whose commit fails with an error that allows
 * an abort, is aborted and its records read again; a commit that times out is retried; a fenced
 * or unauthorised producer is fatal and goes to the caller.
 */
public final class PollTransaction {

  private static final Logger LOG = LoggerFactory.getLogger(PollTransaction.class);

  private final Consumer<byte[], byte[]> consumer;
  private final Producer<byte[], byte[]> producer;
  private final TransactionMeters meters;

  /**
   * @param producer a transactional producer whose transactions are initialised
   */
  public PollTransaction(final Consumer<byte[], byte[]> consumer, final Producer<byte[], byte[]> producer,
      final TransactionMeters meters) {
    this.consumer = requireNonNull(consumer, "consumer");
    this.producer = requireNonNull(producer, "producer");
    this.meters = requireNonNull(meters, "meters");
  }

  /**
   * Routes each record through {@code route}, which writes with the producer it is given, and
   * commits; false when the transaction was aborted and its records are to be read again.
   */
  public boolean run(final ConsumerRecords<byte[], byte[]> records,
      final BiConsumer<ConsumerRecord<byte[], byte[]>, Producer<byte[], byte[]>> route) {
    final long start = System.nanoTime();
    producer.beginTransaction();
    try {
      for (final ConsumerRecord<byte[], byte[]> record : records) {
        route.accept(record, producer);
      }
      // Dispatches first: the producer sends no record while a transactional request is in flight,
      // so offsets committed before them would hold every dispatch back by the offset commit's
      // round trip. Workers read dispatches uncommitted, so a flushed one is taken at once.
      producer.flush();
      producer.sendOffsetsToTransaction(nextOffsets(records), consumer.groupMetadata());
    } catch (final ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
      throw e;
    } catch (final KafkaException e) {
      return abort(records, "Transaction failed", e);
    }
    final long committing = System.nanoTime();
    try {
      commit();
    } catch (final ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
      throw e;
    } catch (final KafkaException e) {
      // An abortable error (the coordinator moved, the transaction timed out): nothing of it is visible.
      return abort(records, "Commit failed", e);
    }
    meters.committed(records.count(), committing - start, System.nanoTime() - committing);
    return true;
  }

  private boolean abort(final ConsumerRecords<byte[], byte[]> records, final String what, final KafkaException e) {
    LOG.warn("{}, aborting and re-reading its records: {}", what, e.toString());
    producer.abortTransaction();
    rewind(records);
    meters.aborted();
    return false;
  }

  /** Commits; a commit that timed out is retried, as the producer requires, until it is done. */
  private void commit() {
    while (true) {
      try {
        producer.commitTransaction();
        return;
      } catch (final TimeoutException e) {
        LOG.warn("Commit timed out; retrying it: {}", e.toString());
      }
    }
  }

  /** Seeks each partition back to the first record of the batch, to be read again. */
  private void rewind(final ConsumerRecords<byte[], byte[]> records) {
    for (final TopicPartition partition : records.partitions()) {
      consumer.seek(partition, records.records(partition).get(0).offset());
    }
  }

  /** The offset after the last record of each partition: what the transaction commits as consumed. */
  static Map<TopicPartition, OffsetAndMetadata> nextOffsets(final ConsumerRecords<byte[], byte[]> records) {
    final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (final TopicPartition partition : records.partitions()) {
      final List<ConsumerRecord<byte[], byte[]>> batch = records.records(partition);
      offsets.put(partition, new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1));
    }
    return offsets;
  }
}
