package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.fleet.TextModel;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The schema registry stops answering ({@code kill -STOP}) for 30 s while 8,000-token sequences stream
 * on two instances: during the outage, new requests are dispatched to the workers and
 * {@code CANCEL}s for half the running sequences reach both, as the gateway sends them, written by a newer writer whose schema id the worker has never seen,
 * so that it cannot read them until the registry is back. Every {@code CANCEL} is then applied (its
 * sequence ends early, "cancelled"), and every other sequence ends whole; one sent during the
 * outage may instead be throttled before its first token (the workers read nothing meanwhile),
 * and is whole when sent again after its retry time, as a client does.
 */
@ExtendWith(TestCluster.class)
class RegistryOutageIT {

  private static final int RUNNING = 6;
  /** Tokens of each long sequence: some 80 s of decoding, well past the outage and the CANCELs read after it. */
  private static final int LONG_ANSWER = 8_000;
  private static final long OUTAGE_MS = 30_000;

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldApplyEveryCancelReadDuringARegistryOutageOnceItIsBack(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .routerSettings(Map.of(RouterConfig.MAX_OUTPUT_TOKENS, LONG_ANSWER)).start()) {
      final Map<String, InferenceRequest> requests = new HashMap<>();
      final Map<String, CompletableFuture<Response>> answers = new HashMap<>();
      final Set<String> streaming = ConcurrentHashMap.newKeySet();
      for (int i = 0; i < RUNNING; i++) {
        submit(rig, "long-" + i, LONG_ANSWER, requests, answers, streaming);
      }
      final String commands = rig.catalogue().name(Topics.COMMANDS);
      final int newerSchemaId = rig.serdes().registry().register(commands + "-value", newerCommandSchema());
      final KafkaProducer<byte[], byte[]> raw = rig.open(new KafkaProducer<>(new HashMap<>(
          rig.settings().clientProperties()), new ByteArraySerializer(), new ByteArraySerializer()));
      // The CANCELs below must reach sequences that are generating, not ones still being routed.
      await().atMost(Duration.ofSeconds(30)).until(() -> streaming.containsAll(requests.keySet()));

      final List<String> cancelled = new ArrayList<>();
      signal("STOP", cluster.registryPid());
      try {
        final long until = System.currentTimeMillis() + OUTAGE_MS;
        for (int i = 0; i < RUNNING; i += 2) {
          final String sequence = "long-" + i;
          for (final String instance : rig.fleet().instanceIds()) {
            raw.send(new ProducerRecord<>(commands, bytes(instance), cancel(newerSchemaId, instance, sequence))).get();
          }
          cancelled.add(sequence);
          submit(rig, "during-" + i, 32, requests, answers, streaming);
          TimeUnit.SECONDS.sleep(2);
        }
        TimeUnit.MILLISECONDS.sleep(Math.max(0, until - System.currentTimeMillis()));
      } finally {
        signal("CONT", cluster.registryPid());
      }

      for (final Map.Entry<String, CompletableFuture<Response>> answer : answers.entrySet()) {
        Response response = answer.getValue().get(3, TimeUnit.MINUTES);
        System.out.println(answer.getKey() + ": " + response.outcome() + " (" + response.last().getReason() + "), "
            + response.tokens().size() + " tokens, finish " + response.last().getFinishReason());
        if (throttledBeforeAnyToken(response)) {
          // A worker reads nothing while it cannot read a record of its partitions (so that no
          // CANCEL is passed over): a request sent during the outage may fail on every instance
          // before its first token and be throttled with a retry time, which a client honours.
          assertThat(response.last().getRetryAfterMs()).as("retry time of %s", answer.getKey()).isPositive();
          TimeUnit.MILLISECONDS.sleep(response.last().getRetryAfterMs());
          final InferenceRequest again = InferenceRequest.newBuilder(requests.get(answer.getKey()))
              .setSequenceId(answer.getKey() + "-again").setSubmittedAtMs(System.currentTimeMillis()).build();
          requests.put(answer.getKey(), again);
          response = rig.client().submit(again).get(3, TimeUnit.MINUTES);
        }
        final String expected = ExpectedText.of(requests.get(answer.getKey()));
        if (cancelled.contains(answer.getKey())) {
          assertThat(response.last().getFinishReason()).as("end of %s", answer.getKey()).isEqualTo("cancelled");
          assertThat(response.tokens().size()).as("tokens of %s", answer.getKey()).isLessThan(LONG_ANSWER);
          assertThat(expected).as("text of %s", answer.getKey()).startsWith(response.text());
        } else {
          assertThat(response.text()).as("text of %s", answer.getKey()).isEqualTo(expected);
        }
      }
    }
  }

  private static boolean throttledBeforeAnyToken(final Response response) {
    return response.outcome() == RoutingOutcome.THROTTLED && response.tokens().isEmpty();
  }

  private static void submit(final PipelineRig rig, final String id, final int maxOutputTokens,
      final Map<String, InferenceRequest> requests, final Map<String, CompletableFuture<Response>> answers,
      final Set<String> streaming) {
    // A seed whose text runs to the limit: the simulated model may stop at half of it.
    final String prompt = "Go on for a while, " + id;
    long seed = id.hashCode();
    while (TextModel.length(prompt, seed, maxOutputTokens, false) < maxOutputTokens) {
      seed++;
    }
    final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId(id).setTenantId("t")
        .setApiKey(TestTenants.key("t")).setPrompt(prompt).setMaxOutputTokens(maxOutputTokens)
        .setSeed(seed).setSubmittedAtMs(System.currentTimeMillis()).build();
    requests.put(id, request);
    answers.put(id, rig.client().submit(request, chunk -> {
      if (!chunk.getTokens().isEmpty()) {
        streaming.add(id);
      }
    }));
  }

  /** The command schema as a newer writer has it: one more field, with a default. */
  private static Schema newerCommandSchema() {
    final Schema current = InstanceCommand.getClassSchema();
    final List<Schema.Field> fields = new ArrayList<>();
    current.getFields().forEach(field -> fields.add(new Schema.Field(field, field.schema())));
    fields.add(new Schema.Field("origin", SchemaBuilder.unionOf().nullType().and().stringType().endUnion(),
        "Who asked (a newer writer's field).", Schema.Field.NULL_DEFAULT_VALUE));
    return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
  }

  /** A CANCEL that ends the sequence, as the gateway sends when its client goes away, in the newer schema's wire format. */
  private static byte[] cancel(final int schemaId, final String instanceId, final String sequenceId)
      throws IOException {
    final Schema schema = newerCommandSchema();
    final GenericRecord command = new GenericData.Record(schema);
    command.put("instanceId", instanceId);
    command.put("type", new GenericData.EnumSymbol(schema.getField("type").schema(), "CANCEL"));
    command.put("sequenceId", sequenceId);
    command.put("epoch", null);
    command.put("endsSequence", true);
    command.put("reason", "the client went away");
    command.put("issuedAtMs", System.currentTimeMillis());
    command.put("origin", "registry outage test");
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(body, null);
    new GenericDatumWriter<GenericRecord>(schema).write(command, encoder);
    encoder.flush();
    return ByteBuffer.allocate(5 + body.size()).put((byte) 0).putInt(schemaId).put(body.toByteArray()).array();
  }

  private static void signal(final String signal, final long pid) throws IOException, InterruptedException {
    final int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
    assertThat(exit).as("kill -%s %d", signal, pid).isZero();
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
