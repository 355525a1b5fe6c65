package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A worker's output without a broker: what runs send lands in a mock producer, and the tokens
 * log a resumed attempt catches up with is a mock consumer that serves what the producer sent.
 */
final class WorkerFixture {

  private final TopicCatalogue catalogue = TopicCatalogue.unprefixed();
  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private final MockProducer<String, SpecificRecord> producer = new MockProducer<>(true, null,
      new StringSerializer(), (topic, value) -> new byte[0]);
  private final WorkerOutput output = new WorkerOutput(producer, catalogue);
  private final MockConsumer<String, byte[]> log = new MockConsumer<>("earliest");
  private final StreamCatchUp catchUp = new StreamCatchUp(log, serdes.value(Topics.TOKENS).deserializer());
  /** Records sent before this index set the log up; they are not the run's. */
  private int ownFrom;

  /** A resumed task whose catch-up finds one token the old attempt sent after the prefix. */
  record Resumable(DispatchTask task) {
  }

  TaskRun run(final DispatchTask task, final InferenceEngine engine) {
    return new TaskRun(task, engine, output, catchUp);
  }

  /**
   * Fills the tokens log: other sequences' chunks at offsets 0 to 4, the old attempt's "c" after
   * the prefix "a", "b" at offset 5; the resumed run's claim then lands at offset 6.
   */
  Resumable resumable() {
    final String topic = catalogue.name(Topics.TOKENS);
    for (int i = 0; i < 5; i++) {
      producer.send(new ProducerRecord<>(topic, "s-other", chunk("s-other", 1, "gpu-9", 0, "x")));
    }
    final TokenChunk old = chunk("s-1", 1, "gpu-1", 2, "c");
    producer.send(new ProducerRecord<>(topic, "s-1", old));
    ownFrom = producer.history().size();
    final TopicPartition partition = new TopicPartition(topic, 0);
    log.updateBeginningOffsets(Map.of(partition, 0L));
    log.schedulePollTask(() -> {
      append(partition, 5, old);
      append(partition, 6, (TokenChunk) producer.history().get(ownFrom).value());
    });
    return new Resumable(DispatchTask.newBuilder().setSequenceId("s-1").setInstanceId("gpu-5").setPrompt("hello")
        .setInputTokens(1).setMaxOutputTokens(40).setSeed(7).setTraceId("t-1").setDispatchedAtMs(0).setEpoch(2)
        .setResumeFromIndex(2).setPrefix(List.of("a", "b")).setPrefixOffset(4).setStreamEpoch(1)
        .setStreamOwner("gpu-1").setRouting(RoutingOutcome.CUTOVER).build());
  }

  /** The chunks the runs sent, in order. */
  List<TokenChunk> chunks() {
    return sent(Topics.TOKENS).stream().map(TokenChunk.class::cast).toList();
  }

  /** The one completion the runs reported. */
  Completion completion() {
    final List<SpecificRecord> completions = sent(Topics.COMPLETIONS);
    assertThat(completions).hasSize(1);
    return (Completion) completions.get(0);
  }

  private List<SpecificRecord> sent(final Topic<?, ?> topic) {
    return producer.history().subList(ownFrom, producer.history().size()).stream()
        .filter(r -> r.topic().equals(catalogue.name(topic))).map(ProducerRecord::value).toList();
  }

  private void append(final TopicPartition partition, final long offset, final TokenChunk chunk) {
    final Serializer<TokenChunk> serializer = serdes.value(Topics.TOKENS).serializer();
    log.addRecord(new ConsumerRecord<>(partition.topic(), partition.partition(), offset, chunk.getSequenceId(),
        serializer.serialize(partition.topic(), chunk)));
  }

  private static TokenChunk chunk(final String sequenceId, final int epoch, final String instance, final int start,
      final String token) {
    return TokenChunk.newBuilder().setSequenceId(sequenceId).setEpoch(epoch).setInstanceId(instance)
        .setStartIndex(start).setTokens(List.of(token)).setEmittedAtMs(0).build();
  }
}
