package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.avro.KvCacheEventKind;
import io.zerolayer.contract.prefix.PrefixBlocks;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Prefix-cache awareness on the real broker: the simulated engines report the blocks their
 * prefix caches store, the router sends requests that share a long prompt prefix to the instance
 * holding it, and that instance prefills only the rest.
 */
@ExtendWith(TestCluster.class)
class PrefixRoutingIT {

  private static final String SHARED = "system: You answer questions about the operations handbook of a Kafka"
      + " platform team. The handbook covers partitions, replication, consumer groups, transactions and the"
      + " state stores of the streams applications. ".repeat(60);
  private static final int REQUESTS = 6;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldKeepAConversationsSharedPrefixOnTheInstanceThatHoldsIt(final TestCluster.Handle cluster)
      throws Exception {
    // Given three idle instances of one class, the last of which reported it holds the shared prefix
    // (a tie between idle instances would go to the first)
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard()).start()) {
      final RecordCollector<String, KvCacheEvent> kvEvents = rig.collect(Topics.KV_EVENTS);
      final Counter applied = rig.pipeline().routerMeters().counter("zerolayer.router.prefix.events");
      final double before = applied.count();
      final long reportedMs = System.currentTimeMillis();
      try (KafkaProducer<String, KvCacheEvent> engine = new KafkaProducer<>(rig.settings().clientProperties(),
          new StringSerializer(), rig.serdes().value(Topics.KV_EVENTS).serializer())) {
        engine.send(new ProducerRecord<>(rig.catalogue().name(Topics.KV_EVENTS), "gpu-2", new KvCacheEvent("gpu-2",
            KvCacheEventKind.STORED, Arrays.stream(PrefixBlocks.of(SHARED)).boxed().toList(),
            reportedMs))).get();
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> applied.count() > before);
      final RecordCollector<String, Completion> completions = rig.collect(Topics.COMPLETIONS);

      // When requests that share a long prompt prefix come one after another, each once the
      // router's heatmap shows the instance that served the one before idle and at full weight
      // again (as a conversation's next turn comes after its reader has read the answer; a busy
      // machine can leave an instance's token cadence uneven, and its weight lower, for a while)
      final List<String> servedBy = new ArrayList<>();
      await().atMost(Duration.ofSeconds(30)).until(() -> rig.fleet().instanceIds().stream().allMatch(id ->
          idleAtFullWeight(rig, id, 0)));
      for (int i = 0; i < REQUESTS; i++) {
        final InferenceRequest request = request(i);
        final Response response = rig.client().submit(request).get(60, TimeUnit.SECONDS);
        assertThat(response.text()).isEqualTo(ExpectedText.of(request));
        final String instance = response.last().getInstanceId();
        servedBy.add(instance);
        final long doneMs = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(30)).until(() -> idleAtFullWeight(rig, instance, doneMs));
      }

      // Then every one goes to the instance that holds the prefix
      assertThat(servedBy).as("instances in request order").containsOnly("gpu-2");
      // which reported the prefix's blocks stored once it had prefilled them itself
      final long firstBlock = PrefixBlocks.of(SHARED)[0];
      kvEvents.awaitUntil(events -> events.stream().map(ConsumerRecord::value).anyMatch(event ->
          event.getInstanceId().equals("gpu-2") && event.getKind() == KvCacheEventKind.STORED
              && event.getAtMs() > reportedMs && event.getBlockHashes().contains(firstBlock)), Duration.ofSeconds(30));
      // and prefilled only what it did not hold: every later prompt found most of itself cached
      final List<ConsumerRecord<String, Completion>> done = completions.awaitUntil(records -> records.size()
          >= REQUESTS, Duration.ofSeconds(30));
      assertThat(done).map(ConsumerRecord::value).filteredOn(c -> !c.getSequenceId().equals("prefix-0"))
          .hasSize(REQUESTS - 1)
          .allSatisfy(c -> assertThat(c.getCachedTokens()).as(c.getSequenceId())
              .isGreaterThan(c.getInputTokens() * 8 / 10));
      assertThat(done).map(ConsumerRecord::value).filteredOn(c -> c.getSequenceId().equals("prefix-0"))
          .singleElement().satisfies(c -> assertThat(c.getCachedTokens()).isZero());
    }
  }

  /** Whether the router's heatmap shows the instance idle, at full weight, from telemetry after {@code sinceMs}. */
  private static boolean idleAtFullWeight(final PipelineRig rig, final String instanceId, final long sinceMs) {
    final InstanceScore row = rig.pipeline().routerHeatmap().row(instanceId);
    return row != null && row.getLastTelemetryMs() > sinceMs && row.getRunningRequests() == 0
        && row.getQueueLength() == 0 && row.getWeight() >= 1.0;
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder()
        .setSequenceId("prefix-" + i)
        .setTenantId("tenant-0")
        .setApiKey(TestTenants.key("tenant-0"))
        .setPrompt(SHARED + "user: question " + i + " about the handbook?")
        .setMaxOutputTokens(16)
        .setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }
}
