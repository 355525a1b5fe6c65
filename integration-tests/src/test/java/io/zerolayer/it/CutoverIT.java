package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The router's side of a cut-over: a stall report moves the sequence to a backup, mid-stream. */
@ExtendWith(TestCluster.class)
class CutoverIT {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldResumeAStalledSequenceOnAnotherInstanceWithNoTokenLostOrRepeated(final TestCluster.Handle cluster)
      throws Exception {
    try (StreamingRig rig = StreamingRig.start(cluster);
        RecordCollector<String, InstanceCommand> commands = new RecordCollector<>(rig.settings(),
            rig.catalogue().name(Topics.COMMANDS), new StringDeserializer(),
            rig.serdes().value(Topics.COMMANDS).deserializer());
        RecordCollector<String, Completion> completions = new RecordCollector<>(rig.settings(),
            rig.catalogue().name(Topics.COMPLETIONS), new StringDeserializer(),
            rig.serdes().value(Topics.COMPLETIONS).deserializer());
        KafkaProducer<String, StallDetected> stalls = new KafkaProducer<>(new HashMap<>(rig.settings()
            .clientProperties()), new StringSerializer(), rig.serdes().value(Topics.STALLS).serializer())) {
      // Given a sequence streaming on its first instance
      final StreamingRig.Story story = rig.requestStory("stalling", 42);
      final RoutingDecision first = story.first();
      final int streamed = rig.awaitTokens("stalling", 8);

      // When the token plane reports it stalled
      stalls.send(new ProducerRecord<>(rig.catalogue().name(Topics.STALLS), "stalling", StallDetected.newBuilder()
          .setSequenceId("stalling").setEpoch(1).setInstanceId(first.getInstanceId()).setNextIndex(streamed)
          .setReason("no token within 1200 ms").setRequestPartition(first.getRequestPartition())
          .setRequestOffset(first.getRequestOffset()).setDetectedAtMs(System.currentTimeMillis()).build())).get();

      // Then it is resumed on the other instance, and the client reads one stream, complete and in order
      final Response response = story.answer().get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(story.request()));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
      final List<RoutingDecision> all = rig.decisions().awaitFor(List.of("stalling"), Duration.ofSeconds(5))
          .get("stalling");
      // (this busy machine can slow the backup past the heatmap's cadence rule, which moves the sequence once
      // more, each move an epoch of its own)
      assertThat(all).hasSizeGreaterThanOrEqualTo(2);
      final RoutingDecision cutover = all.get(1);
      assertThat(cutover.getEpoch()).isEqualTo(2);
      assertThat(cutover.getInstanceId()).isNotEqualTo(first.getInstanceId());
      assertThat(cutover.getResumeFromIndex()).isEqualTo(streamed);
      // And the old attempt was cancelled
      commands.awaitUntil(records -> records.stream().anyMatch(r -> r.value().getType() == CommandType.CANCEL
          && r.key().equals(first.getInstanceId())), Duration.ofSeconds(10));
      completions.awaitUntil(records -> records.stream().anyMatch(r -> r.value().getEpoch() == 1
          && r.value().getOutcome() == CompletionOutcome.CANCELLED), Duration.ofSeconds(10));
    }
  }
}
