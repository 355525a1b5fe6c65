package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RequestLookupTest {

  private static final String TOPIC = "inference.requests.v1";

  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
  private final RequestLookup lookup = new RequestLookup(consumer, serdes, TOPIC);

  @Test
  void shouldFindARequestItDispatchedWithoutReadingTheTopic() {
    lookup.remember(2, 41, request("kept"));

    assertThat(lookup.find(2, 41)).get().extracting(InferenceRequest::getSequenceId).isEqualTo("kept");
    assertThat(consumer.assignment()).as("the topic was not read").isEmpty();
  }

  @Test
  void shouldReadBackARequestItNoLongerKeeps() {
    for (int offset = 0; offset <= RequestLookup.RECENT; offset++) {
      lookup.remember(0, offset, request("kept-" + offset));
    }
    final TopicPartition partition = new TopicPartition(TOPIC, 0);
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, new byte[0],
        serdes.value(Topics.REQUESTS).serializer().serialize(TOPIC, request("read-back")))));

    assertThat(lookup.find(0, 0)).get().extracting(InferenceRequest::getSequenceId).isEqualTo("read-back");
    assertThat(lookup.find(0, RequestLookup.RECENT)).get().extracting(InferenceRequest::getSequenceId)
        .isEqualTo("kept-" + RequestLookup.RECENT);
  }

  private static InferenceRequest request(final String sequenceId) {
    return InferenceRequest.newBuilder().setSequenceId(sequenceId).setTenantId("acme").setApiKey("good-key")
        .setPrompt("Tell me a story").setMaxOutputTokens(64).setSubmittedAtMs(0).build();
  }
}
