package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class AttemptStreamTest {

  /** Answers a send only when the test says so. */
  private final MockProducer<String, SpecificRecord> producer = new MockProducer<>(false, null,
      new StringSerializer(), (topic, value) -> new byte[0]);
  private final List<Exception> failures = new ArrayList<>();
  private long nowMs = 1_000;
  private final AttemptStream stream = new AttemptStream(task(), new AttemptRecords(task()),
      new WorkerOutput(producer, TopicCatalogue.unprefixed()), failures::add, () -> nowMs);

  @Test
  void shouldSendTheTokensEmittedWhileAChunkWaitsForTheBrokerTogetherOnceItAnswers() {
    stream.emit(List.of("a"));
    stream.emit(List.of("b"));
    stream.emit(List.of("c", "d"));
    assertThat(chunks()).as("one chunk in flight, the rest waits").extracting(TokenChunk::getTokens)
        .containsExactly(List.of("a"));

    producer.completeNext();
    assertThat(chunks()).extracting(TokenChunk::getStartIndex, TokenChunk::getTokens)
        .containsExactly(tuple(5, List.of("a")),
            tuple(6, List.of("b", "c", "d")));

    producer.completeNext();
    stream.emit(List.of("e"));
    assertThat(chunks()).as("nothing in flight: a token goes out at once").hasSize(3).last()
        .satisfies(chunk -> assertThat(List.of(chunk.getStartIndex(), chunk.getTokens().size()))
            .containsExactly(9, 1));
    assertThat(failures).isEmpty();
  }

  @Test
  void shouldSendNothingMoreWhenTheBrokerAnswersAChunkWhileTheWorkerCloses() {
    final WorkerOutput output = new WorkerOutput(producer, TopicCatalogue.unprefixed());
    final AttemptStream closing = new AttemptStream(task(), new AttemptRecords(task()), output, failures::add,
        () -> nowMs);
    closing.emit(List.of("a"));
    closing.emit(List.of("b"));

    output.close();
    producer.completeNext();

    assertThat(chunks()).as("the waiting token is left to a backup").extracting(TokenChunk::getTokens)
        .containsExactly(List.of("a"));
    assertThat(failures).isEmpty();
  }

  @Test
  void shouldHoldTokensNoLongerThanTheHoldWhenTheBrokerAnswersSlowly() {
    stream.emit(List.of("a"));
    stream.emit(List.of("b"));
    nowMs += AttemptStream.MAX_HOLD_MS - 1;
    stream.emit(List.of("c"));
    assertThat(chunks()).hasSize(1);

    nowMs += 1;
    stream.emit(List.of("d"));

    assertThat(chunks()).as("sent while the first is still unanswered").extracting(TokenChunk::getTokens)
        .containsExactly(List.of("a"), List.of("b", "c", "d"));
    producer.completeNext();
    stream.emit(List.of("e"));
    assertThat(chunks()).as("one chunk still unanswered").hasSize(2);
    producer.completeNext();
    assertThat(chunks()).extracting(TokenChunk::getStartIndex, TokenChunk::getTokens).last()
        .isEqualTo(tuple(9, List.of("e")));
  }

  @Test
  void shouldSendWaitingTokensBeforeTheLastChunkWithoutWaitingForTheBroker() {
    stream.emit(List.of("a"));
    stream.emit(List.of("b"));

    stream.end("stop");

    assertThat(chunks()).extracting(TokenChunk::getStartIndex, TokenChunk::getTokens, TokenChunk::getLast)
        .containsExactly(tuple(5, List.of("a"), false),
            tuple(6, List.of("b"), false),
            tuple(7, List.of(), true));
    producer.completeNext();
    assertThat(chunks()).as("nothing is sent after the last chunk").hasSize(3);
  }

  private List<TokenChunk> chunks() {
    return producer.history().stream().map(ProducerRecord::value).map(TokenChunk.class::cast).toList();
  }

  private static DispatchTask task() {
    return DispatchTask.newBuilder().setSequenceId("s-1").setInstanceId("gpu-5").setPrompt("hello")
        .setInputTokens(1).setMaxOutputTokens(16).setSeed(7).setTraceId("t-1").setDispatchedAtMs(0)
        .setEpoch(2).setResumeFromIndex(5).setRequestPartition(3).setRequestOffset(41).build();
  }
}
