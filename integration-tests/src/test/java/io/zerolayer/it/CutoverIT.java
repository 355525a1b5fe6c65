package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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

  /** Slow decode (40 ms a step) so the stream is still running when the stall is reported. */
  private static final GpuProfile SLOW = new GpuProfile(16, 20, 0.05, 40, 0.5, Duration.ofSeconds(8), 4);

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldResumeAStalledSequenceOnAnotherInstanceWithNoTokenLostOrRepeated(final TestCluster.Handle cluster)
      throws Exception {
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    try (Fleet fleet = Fleet.start(settings, 2, List.of("zone-a"), SLOW, new SimpleMeterRegistry());
        Pipeline pipeline = Pipeline.start(settings, cluster.stateDir(catalogue), false, TestTenants.UNLIMITED);
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        RecordCollector<String, ResponseChunk> responses = new RecordCollector<>(settings,
            catalogue.name(Topics.RESPONSES), new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
        RecordCollector<String, InstanceCommand> commands = new RecordCollector<>(settings,
            catalogue.name(Topics.COMMANDS), new StringDeserializer(), serdes.value(Topics.COMMANDS).deserializer());
        RecordCollector<String, Completion> completions = new RecordCollector<>(settings,
            catalogue.name(Topics.COMPLETIONS), new StringDeserializer(),
            serdes.value(Topics.COMPLETIONS).deserializer());
        KafkaProducer<String, StallDetected> stalls = new KafkaProducer<>(new HashMap<>(settings.clientProperties()),
            new StringSerializer(), serdes.value(Topics.STALLS).serializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      Awaits.routerSees(pipeline, fleet.instanceIds());

      // Given a sequence streaming on its first instance
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("stalling").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("A long answer, please.").setMaxOutputTokens(64).setSeed(42)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      final RoutingDecision first = decisions.awaitFor(List.of("stalling"), Duration.ofSeconds(30))
          .get("stalling").get(0);
      final int streamed = responses.awaitUntil(records -> tokens(records) >= 8, Duration.ofSeconds(30)).stream()
          .mapToInt(r -> r.value().getTokens().size()).sum();

      // When the token plane reports it stalled
      stalls.send(new ProducerRecord<>(catalogue.name(Topics.STALLS), "stalling", StallDetected.newBuilder()
          .setSequenceId("stalling").setEpoch(1).setInstanceId(first.getInstanceId()).setNextIndex(streamed)
          .setReason("no token within 1200 ms").setRequestPartition(first.getRequestPartition())
          .setRequestOffset(first.getRequestOffset()).setDetectedAtMs(System.currentTimeMillis()).build())).get();

      // Then it is resumed on the other instance, and the client reads one stream, complete and in order
      final Response response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(request));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
      final List<RoutingDecision> all = decisions.awaitFor(List.of("stalling"), Duration.ofSeconds(5)).get("stalling");
      assertThat(all).hasSize(2);
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

  private static int tokens(final List<ConsumerRecord<String, ResponseChunk>> records) {
    return records.stream().filter(r -> r.key().equals("stalling")).mapToInt(r -> r.value().getTokens().size()).sum();
  }
}
