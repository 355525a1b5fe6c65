package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class StreamCatchUpTest {

  private static final TopicPartition PARTITION = new TopicPartition("inference.tokens.v1", 4);

  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private final Serializer<TokenChunk> serializer = serdes.value(Topics.TOKENS).serializer();
  private final MockConsumer<String, byte[]> log = new MockConsumer<>("earliest");
  private final StreamCatchUp catchUp = new StreamCatchUp(log, serdes.value(Topics.TOKENS).deserializer());

  StreamCatchUpTest() {
    log.updateBeginningOffsets(Map.of(PARTITION, 0L));
  }

  @Test
  void shouldAddWhatTheOldAttemptSentAfterThePrefixUpToTheClaim() {
    append(11, chunk(1, "gpu-1", 2, "c"));
    append(12, chunk(5, "gpu-9", 0, "other sequence"));
    append(13, claim("run-1"));
    append(14, chunk(1, "gpu-1", 3, "after the claim"));

    assertThat(catchUp.at(resumed(), "run-1", claimAt(13))).contains(List.of("a", "b", "c"));
  }

  @Test
  void shouldNotLetTheAttemptGenerateWhenANewerOneTookTheStreamFirst() {
    append(11, chunk(3, "gpu-7", 2));
    append(12, claim("run-1"));

    assertThat(catchUp.at(resumed(), "run-1", claimAt(12))).isEmpty();
  }

  @Test
  void shouldNotLetTheAttemptGenerateWhenTheOldOneFinishedTheStreamBeforeTheClaim() {
    final TokenChunk last = chunk(1, "gpu-1", 2, "c");
    last.setLast(true);
    append(11, last);
    append(12, claim("run-1"));

    assertThat(catchUp.at(resumed(), "run-1", claimAt(12))).isEmpty();
  }

  /** Puts a record in the log, once the catch-up has assigned itself the partition. */
  @Test
  void shouldNotLetTheAttemptGenerateWhenAnotherRunOfTheSameTaskClaimedFirst() {
    append(11, claim("run-0"));
    append(12, claim("run-1"));

    assertThat(catchUp.at(resumed(), "run-1", claimAt(12))).isEmpty();
  }

  private static TokenChunk claim(final String attemptId) {
    return TokenChunk.newBuilder(chunk(2, "gpu-5", 2)).setAttemptId(attemptId).build();
  }

  private void append(final long offset, final TokenChunk chunk) {
    final ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(PARTITION.topic(), PARTITION.partition(),
        offset, chunk.getSequenceId(), serializer.serialize(PARTITION.topic(), chunk));
    log.schedulePollTask(() -> log.addRecord(record));
    log.updateEndOffsets(Map.of(PARTITION, offset + 1));
  }

  private static RecordMetadata claimAt(final long offset) {
    return new RecordMetadata(PARTITION, offset, 0, 0, 0, 0);
  }

  /** Resumed by gpu-5 as epoch 2 from the prefix "a", "b", which ended with gpu-1's chunk at offset 10. */
  private static DispatchTask resumed() {
    return DispatchTask.newBuilder().setSequenceId("s-1").setEpoch(2).setInstanceId("gpu-5").setPrompt("p")
        .setInputTokens(1).setMaxOutputTokens(10).setSeed(1).setTraceId("t").setDispatchedAtMs(0)
        .setResumeFromIndex(2).setPrefix(List.of("a", "b")).setPrefixOffset(10).setStreamEpoch(1)
        .setStreamOwner("gpu-1").build();
  }

  private static TokenChunk chunk(final int epoch, final String instance, final int start, final String... tokens) {
    return TokenChunk.newBuilder().setSequenceId(tokens.length > 0 && tokens[0].equals("other sequence") ? "s-2"
        : "s-1").setEpoch(epoch).setInstanceId(instance).setStartIndex(start).setTokens(List.of(tokens))
        .setEmittedAtMs(0).build();
  }
}
