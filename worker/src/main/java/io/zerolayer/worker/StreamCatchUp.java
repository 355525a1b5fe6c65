package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.sequence.TokenStreamRules;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What a resumed attempt continues after: the prefix its task carries (the stream as token-buffer
 * had it when it reported the stall), and whatever joined the stream after it, read from the
 * tokens log up to the attempt's own claim. The old attempt may still have been sending between
 * the report and the claim; from the claim on it is fenced, so this is exactly the text the
 * stream holds, by the same rules every reader applies ({@link TokenStreamRules}).
 */
final class StreamCatchUp implements AutoCloseable {

  private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private final Consumer<String, byte[]> consumer;
  private final Deserializer<TokenChunk> chunks;

  StreamCatchUp(final ClusterSettings cluster, final ContractSerdes serdes) {
    this(new KafkaConsumer<>(consumerProps(cluster), new StringDeserializer(), new ByteArrayDeserializer()),
        serdes.value(Topics.TOKENS).deserializer());
  }

  StreamCatchUp(final Consumer<String, byte[]> consumer, final Deserializer<TokenChunk> chunks) {
    this.consumer = requireNonNull(consumer, "consumer");
    this.chunks = requireNonNull(chunks, "chunks");
  }

  private static Map<String, Object> consumerProps(final ClusterSettings cluster) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    return props;
  }

  /**
   * The stream's tokens at the attempt's claim, or empty when the claim did not make this run of
   * the attempt the owner (a newer attempt or another run owns the stream, or the stream had
   * ended): it must not generate.
   *
   * @param attemptId this run's id, which its claim carries
   *
   * @throws IllegalStateException when the log cannot be read up to the claim in time
   */
  synchronized Optional<List<String>> at(final DispatchTask task, final String attemptId,
      final RecordMetadata claim) {
    final List<String> tokens = new ArrayList<>(task.getPrefix());
    TokenStreamRules.Owner owner = task.getStreamOwner() == null ? null
        : new TokenStreamRules.Owner(task.getStreamEpoch(), task.getStreamOwner(), task.getStreamAttempt());
    final TopicPartition partition = new TopicPartition(claim.topic(), claim.partition());
    consumer.assign(List.of(partition));
    consumer.seek(partition, task.getPrefixOffset() + 1);
    final long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    while (consumer.position(partition) <= claim.offset()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + partition + " up to the attempt's claim at offset "
            + claim.offset() + " within " + READ_TIMEOUT.toSeconds() + " s");
      }
      for (final ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
        if (record.offset() > claim.offset() || !task.getSequenceId().equals(record.key()) || record.value() == null) {
          continue;
        }
        final TokenChunk chunk = chunks.deserialize(record.topic(), record.value());
        final TokenStreamRules.Verdict verdict = TokenStreamRules.judge(owner, tokens.size(), chunk);
        if (!verdict.joins()) {
          continue;
        }
        if (chunk.getLast()) {
          // The old attempt finished the stream before the claim: nothing is left to generate.
          return Optional.empty();
        }
        tokens.addAll(TokenStreamRules.fresh(tokens.size(), chunk));
        owner = TokenStreamRules.Owner.of(chunk);
      }
    }
    final boolean owns = owner != null && owner.equals(new TokenStreamRules.Owner(task.getEpoch(),
        task.getInstanceId(), attemptId));
    return owns ? Optional.of(tokens) : Optional.empty();
  }

  @Override
  public synchronized void close() {
    consumer.close();
  }
}
