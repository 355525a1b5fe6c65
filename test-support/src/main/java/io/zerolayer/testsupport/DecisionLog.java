package io.zerolayer.testsupport;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Every routing decision written during a test, by sequence id. */
public final class DecisionLog implements AutoCloseable {

  private final RecordCollector<String, RoutingDecision> collector;

  public DecisionLog(final ClusterSettings cluster, final ContractSerdes serdes) {
    collector = new RecordCollector<>(cluster, cluster.catalogue().name(Topics.DECISIONS), new StringDeserializer(),
        serdes.value(Topics.DECISIONS).deserializer());
  }

  /** Waits until each sequence has a decision; returns all decisions of those sequences. */
  public Map<String, List<RoutingDecision>> awaitFor(final Collection<String> sequenceIds, final Duration timeout) {
    return collector.awaitUntil(records -> bySequence(records).keySet().containsAll(sequenceIds), timeout)
        .stream()
        .filter(r -> sequenceIds.contains(r.key()))
        .collect(Collectors.groupingBy(ConsumerRecord::key,
            Collectors.mapping(ConsumerRecord::value, Collectors.toList())));
  }

  /**
   * Whether this is its sequence's first decision: epoch 1 when it was dispatched, epoch 0 when
   * it was refused at once (a throttle while the heatmap has every instance out of service).
   */
  public static boolean isFirst(final RoutingDecision decision) {
    return decision.getEpoch() <= 1;
  }

  /** A sequence's decisions read so far, one line each (epoch, outcome, reason), for failure messages. */
  public String describe(final String sequenceId) {
    return all().stream().filter(d -> d.getSequenceId().equals(sequenceId))
        .map(d -> d.getEpoch() + " " + d.getOutcome() + ": " + d.getReason()).toList().toString();
  }

  /** Every decision read so far. */
  public List<RoutingDecision> all() {
    return collector.records().stream().map(ConsumerRecord::value).toList();
  }

  private static Map<String, Long> bySequence(final List<ConsumerRecord<String, RoutingDecision>> records) {
    return records.stream().collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
  }

  @Override
  public void close() {
    collector.close();
  }
}
