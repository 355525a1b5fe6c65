package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
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
 * The router's Kafka transaction: the records of every poll over one commit interval,
 * everything their routing writes, and the consumed offsets, committed together, as a Kafka
 * Streams task commits. What routing writes is sent at once, not at the commit: workers read
 * dispatches uncommitted, so a request's dispatch never waits for the commit's round trips, and
 * the poll loop waits for them once an interval instead of once a poll. A transaction whose
 * routing fails, or whose commit fails with an error that allows an abort, is aborted and every
 * record read since it began is read again; a commit that times out is retried; a fenced or
 * unauthorised producer is fatal and goes to the caller. Used by the router's poll thread only.
 */
public final class RoutingTransaction {

  private static final Logger LOG = LoggerFactory.getLogger(RoutingTransaction.class);

  /** What is told when a transaction ends: what its decisions took is kept, or given back. */
  @FunctionalInterface
  public interface Settlement {
    void ended(boolean committed);
  }

  private final Consumer<byte[], byte[]> consumer;
  private final Producer<byte[], byte[]> producer;
  private final TransactionMeters meters;
  private final long intervalNanos;
  private final Settlement settle;
  private final Map<TopicPartition, Long> firstOffsets = new HashMap<>();
  private final Map<TopicPartition, OffsetAndMetadata> nextOffsets = new HashMap<>();
  private boolean open;
  private long openedNanos;
  private int records;

  /**
   * @param producer a transactional producer whose transactions are initialised
   * @param commitInterval how long a transaction stays open for more polls; zero commits each poll's
   * @param settle told when a transaction ends, whether it committed (true) or was aborted (false)
   */
  public RoutingTransaction(final Consumer<byte[], byte[]> consumer,
      final Producer<byte[], byte[]> producer, final TransactionMeters meters, final Duration commitInterval,
      final Settlement settle) {
    this.consumer = requireNonNull(consumer, "consumer");
    this.producer = requireNonNull(producer, "producer");
    this.meters = requireNonNull(meters, "meters");
    this.intervalNanos = requireNonNull(commitInterval, "commitInterval").toNanos();
    this.settle = requireNonNull(settle, "settle");
  }

  /**
   * Routes one poll's records through {@code route}, which writes with the producer it is given,
   * in the open transaction, beginning one when none is open.
   */
  public void route(final ConsumerRecords<byte[], byte[]> polled,
      final BiConsumer<ConsumerRecord<byte[], byte[]>, Producer<byte[], byte[]>> route) {
    final long start = System.nanoTime();
    if (!open) {
      producer.beginTransaction();
      open = true;
      openedNanos = start;
    }
    track(polled);
    try {
      for (final ConsumerRecord<byte[], byte[]> record : polled) {
        route.accept(record, producer);
      }
    } catch (final ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
      throw e;
    } catch (final KafkaException e) {
      abort("Routing failed", e);
      return;
    }
    meters.routed(System.nanoTime() - start);
  }

  /** How long the next poll may wait for records: until the open transaction is due, else {@code idle}. */
  public Duration pollTimeout(final Duration idle) {
    if (!open) {
      return idle;
    }
    return Duration.ofNanos(Math.max(0, Math.min(idle.toNanos(), openedNanos + intervalNanos - System.nanoTime())));
  }

  /** Commits the open transaction once it has been open for the commit interval. */
  public void commitIfDue() {
    if (open && System.nanoTime() - openedNanos >= intervalNanos) {
      commit();
    }
  }

  /** Commits the open transaction, if any, now. */
  public void commit() {
    if (!open) {
      return;
    }
    final long start = System.nanoTime();
    try {
      // Whatever is still unsent first: the producer sends no record while a transactional request is
      // in flight, so a dispatch routed just now would otherwise wait for the offsets' round trip.
      producer.flush();
      producer.sendOffsetsToTransaction(Map.copyOf(nextOffsets), consumer.groupMetadata());
      commitRetryingTimeouts();
    } catch (final ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
      throw e;
    } catch (final KafkaException e) {
      // An abortable error (the coordinator moved, the transaction timed out): nothing of it is visible.
      abort("Commit failed", e);
      return;
    }
    meters.committed(records, System.nanoTime() - start);
    end(true);
  }

  /**
   * The rebalance listener to give the consumer: the open transaction commits before partitions
   * are revoked, so that the router taking them reads on from where this one stopped, and is
   * aborted when they were lost (another router may have them already); then {@code next} is told.
   */
  public ConsumerRebalanceListener committingBefore(final ConsumerRebalanceListener next) {
    requireNonNull(next, "next");
    return new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
        commit();
        next.onPartitionsRevoked(partitions);
      }

      @Override
      public void onPartitionsLost(final Collection<TopicPartition> partitions) {
        if (open) {
          abort("Partitions " + partitions + " lost with a transaction open", null);
        }
        next.onPartitionsLost(partitions);
      }

      @Override
      public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
        next.onPartitionsAssigned(partitions);
      }
    };
  }

  private void track(final ConsumerRecords<byte[], byte[]> polled) {
    for (final TopicPartition partition : polled.partitions()) {
      final List<ConsumerRecord<byte[], byte[]>> batch = polled.records(partition);
      firstOffsets.putIfAbsent(partition, batch.get(0).offset());
      nextOffsets.put(partition, new OffsetAndMetadata(batch.get(batch.size() - 1).offset() + 1));
    }
    records += polled.count();
  }

  /** Aborts the open transaction and rewinds the partitions still assigned to its first records. */
  private void abort(final String what, final KafkaException cause) {
    LOG.warn("{}, aborting and re-reading its {} records{}", what, records, cause == null ? "" : ": " + cause);
    producer.abortTransaction();
    firstOffsets.forEach((partition, offset) -> {
      if (consumer.assignment().contains(partition)) {
        consumer.seek(partition, offset);
      }
    });
    meters.aborted();
    end(false);
  }

  /** Commits; a commit that timed out is retried, as the producer requires, until it is done. */
  private void commitRetryingTimeouts() {
    while (true) {
      try {
        producer.commitTransaction();
        return;
      } catch (final TimeoutException e) {
        LOG.warn("Commit timed out; retrying it: {}", e.toString());
      }
    }
  }

  private void end(final boolean committed) {
    open = false;
    records = 0;
    firstOffsets.clear();
    nextOffsets.clear();
    settle.ended(committed);
  }
}
