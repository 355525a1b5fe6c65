package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.DeadLetters;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.RandomData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class DeadLetterIT {

  /** Every topic some app reads, with the instance or sequence key its readers will see. */
  private static final List<Topic<String, ?>> INPUTS = List.of(Topics.TELEMETRY, Topics.COMPLETIONS,
      Topics.REQUESTS, Topics.STALLS, Topics.DECISIONS, Topics.TOKENS, Topics.DISPATCH, Topics.COMMANDS,
      Topics.INSTANCE_SCORES, Topics.SEQUENCE_HOLDS, Topics.KV_EVENTS);
  /** The inputs where a tombstone means nothing: all but the compacted ones, where it removes a key. */
  private static final List<Topic<String, ?>> VALUED_INPUTS = INPUTS.stream()
      .filter(t -> t != Topics.INSTANCE_SCORES && t != Topics.SEQUENCE_HOLDS).toList();
  /** The inputs whose values hold an enum, which a newer writer may add a symbol to. */
  private static final List<Topic<String, ?>> ENUM_INPUTS = List.of(Topics.COMPLETIONS, Topics.DECISIONS,
      Topics.TOKENS, Topics.DISPATCH, Topics.COMMANDS, Topics.INSTANCE_SCORES, Topics.KV_EVENTS);
  /** The inputs keyed by instance, of which a worker reads only its own instances' partitions. */
  private static final List<Topic<String, ?>> WORKER_INPUTS = List.of(Topics.DISPATCH, Topics.COMMANDS);
  private static final String NEWER_SYMBOL = "FROM_A_NEWER_WRITER";
  /** The inputs heatmap-streams reads, whose dead letters go to the telemetry dead-letter topic. */
  private static final List<Topic<String, ?>> HEATMAP_INPUTS = List.of(Topics.TELEMETRY, Topics.COMPLETIONS);

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldDeadLetterInvalidRecordsOnEveryInputTopicAndKeepServing(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard()).start()) {
      final TopicCatalogue catalogue = rig.catalogue();
      final ContractSerdes serdes = rig.serdes();
      final KafkaProducer<byte[], byte[]> raw = rig.open(rawProducer(rig.settings()));
      final RecordCollector<byte[], byte[]> telemetryDlq = rig.collectRaw(Topics.TELEMETRY_DLQ);
      final RecordCollector<byte[], byte[]> inferenceDlq = rig.collectRaw(Topics.INFERENCE_DLQ);
      final RecordCollector<String, ResponseChunk> responses = rig.responses();
      final int schemaId = serdes.registry().register("zerolayer-it-any-value", InstanceTelemetry.getClassSchema());

      // Given three kinds of invalid record on every input topic
      final Map<String, byte[]> invalid = Map.of(
          "garbage bytes", "this is not avro".getBytes(StandardCharsets.UTF_8),
          "unknown schema id", wire(999_999, new byte[] {2, 'x'}),
          "value breaking its schema", wire(schemaId, new byte[] {1}));
      for (final Topic<String, ?> topic : INPUTS) {
        for (final byte[] value : invalid.values()) {
          raw.send(new ProducerRecord<>(catalogue.name(topic), "gpu-0".getBytes(StandardCharsets.UTF_8), value));
        }
      }
      // And a tombstone on every topic whose records must have a value (one on the completions once
      // failed the heatmap's task on every retry; token-buffer once dropped them without a word)
      for (final Topic<String, ?> topic : VALUED_INPUTS) {
        raw.send(new ProducerRecord<>(catalogue.name(topic), "gpu-0".getBytes(StandardCharsets.UTF_8), null));
      }
      // And a valid token chunk keyed by another sequence than its own, which would splice its text into that one
      final String tokens = catalogue.name(Topics.TOKENS);
      raw.send(new ProducerRecord<>(tokens, "someone-else".getBytes(StandardCharsets.UTF_8),
          serdes.value(Topics.TOKENS).serializer().serialize(tokens, TokenChunk.newBuilder().setSequenceId("mine")
              .setEpoch(1).setInstanceId("gpu-0").setStartIndex(0).setTokens(List.of("x"))
              .setEmittedAtMs(System.currentTimeMillis()).build())));
      // And a request whose reply topic does not exist, which token-buffer could never write to, and
      // one whose reply topic is one of the pipeline's own, where no client may have answers written
      final String requests = catalogue.name(Topics.REQUESTS);
      final String decisions = catalogue.name(Topics.DECISIONS);
      for (final Map.Entry<String, String> reply : Map.of("lost-reply", "no-such-replies", "internal-reply",
          decisions).entrySet()) {
        raw.send(new ProducerRecord<>(requests, reply.getKey().getBytes(StandardCharsets.UTF_8),
            serdes.value(Topics.REQUESTS).serializer().serialize(requests, InferenceRequest.newBuilder()
                .setSequenceId(reply.getKey()).setTenantId("t").setApiKey(TestTenants.key("t")).setPrompt("where to?")
                .setMaxOutputTokens(8).setReplyTopic(reply.getValue()).setSubmittedAtMs(System.currentTimeMillis())
                .build())));
      }
      raw.flush();

      // Then each request is refused at the door, on the response topic, saying why
      final List<ConsumerRecord<String, ResponseChunk>> answers = responses.awaitUntil(records -> records.stream()
          .filter(r -> "lost-reply".equals(r.key()) || "internal-reply".equals(r.key())).count() >= 2,
          Duration.ofSeconds(60));
      final ResponseChunk refused = answerTo("lost-reply", answers);
      assertThat(refused.getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
      assertThat(refused.getReason()).startsWith("replyTopic 'no-such-replies' does not exist");
      final ResponseChunk forbidden = answerTo("internal-reply", answers);
      assertThat(forbidden.getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
      assertThat(forbidden.getReason()).startsWith("replyTopic '" + decisions + "' is one of the pipeline's own topics");
      // And each invalid record shows up on its dead-letter topic with the reason and origin in its headers
      final List<Topic<String, ?>> inferenceInputs = INPUTS.stream().filter(t -> !HEATMAP_INPUTS.contains(t)).toList();
      final List<Topic<String, ?>> inferenceValued = VALUED_INPUTS.stream().filter(t -> !HEATMAP_INPUTS.contains(t))
          .toList();
      telemetryDlq.awaitUntil(records -> records.size() >= 4 * HEATMAP_INPUTS.size(), Duration.ofSeconds(60));
      inferenceDlq.awaitUntil(records -> records.size() >= 3 * inferenceInputs.size() + inferenceValued.size() + 1,
          Duration.ofSeconds(60));
      assertThat(originTopics(telemetryDlq.records())).containsExactlyInAnyOrder(Stream.concat(
          Arrays.stream(threeEach(catalogue, HEATMAP_INPUTS.stream())), HEATMAP_INPUTS.stream().map(catalogue::name))
          .toArray(String[]::new));
      assertThat(telemetryDlq.records()).anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE))
          .contains("completion record without a value"));
      assertThat(originTopics(inferenceDlq.records())).containsExactlyInAnyOrder(Stream.concat(Stream.concat(
          Arrays.stream(threeEach(catalogue, inferenceInputs.stream())), inferenceValued.stream().map(catalogue::name)),
          Stream.of(tokens)).toArray(String[]::new));
      assertThat(inferenceDlq.records()).anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE))
          .contains("token chunk without a value"))
          .anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE)).contains("routing decision without a value"))
          .anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE)).contains("record without a value (a tombstone)"))
          .anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE))
              .contains("token chunk of sequence mine keyed by someone-else"));
      final List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(telemetryDlq.records());
      all.addAll(inferenceDlq.records());
      assertThat(all).allSatisfy(record -> {
        assertThat(header(record, DeadLetters.MESSAGE)).isNotBlank();
        assertThat(header(record, DeadLetters.OFFSET)).isNotBlank();
      });
      assertThat(all).anySatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE)).contains("schema id 999999"));

      // And every app goes on: new requests are still routed and answered, and no task failed
      assertEveryAppGoesOn(rig, "after-dlq-");
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldDeadLetterRecordsWithoutAKeyAndRecordsNearTheSizeLimitAndKeepServing(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard()).start()) {
      final TopicCatalogue catalogue = rig.catalogue();
      final KafkaProducer<byte[], byte[]> raw = rig.open(rawProducer(rig.settings()));
      final RecordCollector<byte[], byte[]> telemetryDlq = rig.collectRaw(Topics.TELEMETRY_DLQ);
      final RecordCollector<byte[], byte[]> inferenceDlq = rig.collectRaw(Topics.INFERENCE_DLQ);
      final Random random = new Random(7);

      // Given a well-formed value without a key on every topic that takes records without one, in
      // the partition of gpu-0's records (a worker reads only its instance's partitions)
      for (final Topic<String, ?> topic : VALUED_INPUTS) {
        raw.send(new ProducerRecord<>(catalogue.name(topic), partitionOf("gpu-0", topic), null,
            wellFormed(rig.serdes(), catalogue, topic, random)));
      }
      // And, on every input topic, a record whose value is a little under the broker's limit (1 MiB):
      // its dead letter, with the headers that say why, would be over it
      final byte[] large = new byte[1_048_576 - 2_048];
      Arrays.fill(large, (byte) 'x');
      for (final Topic<String, ?> topic : INPUTS) {
        raw.send(new ProducerRecord<>(catalogue.name(topic), "gpu-0".getBytes(StandardCharsets.UTF_8), large)).get();
      }
      raw.flush();

      // Then each shows up on its dead-letter topic, saying why, the large ones cut short
      final int heatmapInputs = HEATMAP_INPUTS.size();
      final int inferenceValued = (int) VALUED_INPUTS.stream().filter(t -> !HEATMAP_INPUTS.contains(t)).count();
      awaitLetters(telemetryDlq, 2 * heatmapInputs);
      awaitLetters(inferenceDlq, inferenceValued + INPUTS.size() - heatmapInputs);
      final List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(telemetryDlq.records());
      all.addAll(inferenceDlq.records());
      assertThat(all.stream().filter(r -> r.key() == null).map(r -> header(r, DeadLetters.TOPIC)).toList())
          .containsExactlyInAnyOrderElementsOf(VALUED_INPUTS.stream().map(catalogue::name).toList());
      assertThat(all).filteredOn(r -> r.key() == null)
          .allSatisfy(r -> assertThat(header(r, DeadLetters.MESSAGE)).as("reason").contains("without a key"));
      assertThat(all).filteredOn(r -> r.key() != null)
          .hasSize(INPUTS.size())
          .allSatisfy(r -> {
            assertThat(r.value().length).isLessThan(large.length);
            assertThat(header(r, DeadLetters.VALUE_BYTES)).isEqualTo(String.valueOf(large.length));
          });

      // And every app goes on: new requests are still routed and answered, and no task failed
      assertEveryAppGoesOn(rig, "after-poison-");
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldReadEnumSymbolsANewerWriterAddedInsteadOfDeadLetteringThem(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard()).start()) {
      final TopicCatalogue catalogue = rig.catalogue();
      final KafkaProducer<byte[], byte[]> raw = rig.open(rawProducer(rig.settings()));
      final RecordCollector<byte[], byte[]> telemetryDlq = rig.collectRaw(Topics.TELEMETRY_DLQ);
      final RecordCollector<byte[], byte[]> inferenceDlq = rig.collectRaw(Topics.INFERENCE_DLQ);
      final Random random = new Random(11);

      // Given, on every input topic whose value holds an enum, a record from a newer writer whose
      // schema has one more symbol in each enum, which the record uses, and after it garbage on the
      // same partition, whose dead letter tells that the record before it was read. Keyed by an
      // instance that does not run, so that no app acts on the random values.
      final List<String> newer = new ArrayList<>();
      for (final Topic<String, ?> topic : ENUM_INPUTS) {
        final String name = catalogue.name(topic);
        final Schema schema = newerWriter(SpecificData.get().getSchema(topic.valueType()));
        final int schemaId = rig.serdes().registry().register(name + "-value", schema);
        final int partition = partitionOf(WORKER_INPUTS.contains(topic) ? "gpu-0" : "gpu-9", topic);
        final byte[] key = "gpu-9".getBytes(StandardCharsets.UTF_8);
        final byte[] value = wire(schemaId, encode(schema, withNewerSymbols(schema,
            new RandomData(schema, 1, random.nextLong()).iterator().next())));
        newer.add(origin(name, partition, raw.send(new ProducerRecord<>(name, partition, key, value)).get().offset()));
        raw.send(new ProducerRecord<>(name, partition, key, "garbage".getBytes(StandardCharsets.UTF_8))).get();
      }

      // Then the garbage behind each is dead-lettered, so each was read
      final int heatmapInputs = (int) ENUM_INPUTS.stream().filter(HEATMAP_INPUTS::contains).count();
      awaitLetters(telemetryDlq, heatmapInputs);
      awaitLetters(inferenceDlq, ENUM_INPUTS.size() - heatmapInputs);
      // And none was dead-lettered for its symbol: a reader takes an enum's default for a symbol it does not know
      final List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(telemetryDlq.records());
      all.addAll(inferenceDlq.records());
      assertThat(all).filteredOn(r -> newer.contains(origin(header(r, DeadLetters.TOPIC),
              Integer.parseInt(header(r, DeadLetters.PARTITION)), Long.parseLong(header(r, DeadLetters.OFFSET)))))
          .allSatisfy(r -> {
            assertThat(header(r, DeadLetters.MESSAGE)).doesNotContain(NEWER_SYMBOL);
            assertThat(header(r, DeadLetters.EXCEPTION)).doesNotContain("Serialization");
          });

      // And every app goes on: new requests are still routed and answered, and no task failed
      assertEveryAppGoesOn(rig, "after-newer-");
    }
  }

  private static ResponseChunk answerTo(final String sequenceId,
      final List<ConsumerRecord<String, ResponseChunk>> answers) {
    return answers.stream().filter(r -> sequenceId.equals(r.key())).findFirst().orElseThrow().value();
  }

  /** The schema with {@link #NEWER_SYMBOL} added to each of its enums, as a newer writer has it. */
  private static Schema newerWriter(final Schema schema) {
    final String json = schema.toString().replaceAll("(\"symbols\":\\[[^\\]]*)\\]", "$1,\"" + NEWER_SYMBOL + "\"]");
    final Schema newer = new Schema.Parser().parse(json);
    assertThat(json).as("enums of %s", schema.getName()).contains(NEWER_SYMBOL);
    return newer;
  }

  /** The record with every enum field at the top level, or in a union there, set to {@link #NEWER_SYMBOL}. */
  private static GenericRecord withNewerSymbols(final Schema schema, final Object random) {
    final GenericRecord record = (GenericRecord) random;
    for (final Schema.Field field : schema.getFields()) {
      final Schema type = field.schema();
      final List<Schema> branches = type.getType() == Schema.Type.UNION ? type.getTypes() : List.of(type);
      branches.stream().filter(branch -> branch.getType() == Schema.Type.ENUM).findFirst()
          .ifPresent(anEnum -> record.put(field.name(), new GenericData.EnumSymbol(anEnum, NEWER_SYMBOL)));
    }
    return record;
  }

  private static byte[] encode(final Schema schema, final GenericRecord record) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return bytes.toByteArray();
  }

  private static String origin(final String topic, final int partition, final long offset) {
    return topic + "-" + partition + "@" + offset;
  }

  /**
   * New requests are still routed and answered; every app of the rig answers ready, and no stream
   * thread of heatmap-streams or token-buffer failed: a poison record is set aside, not retried
   * until the app gives up.
   */
  private static void assertEveryAppGoesOn(final PipelineRig rig, final String idPrefix) throws Exception {
    assertStillServing(rig.client(), idPrefix);
    final HttpClient http = HttpClient.newHttpClient();
    for (final Map.Entry<String, String> app : rig.pipeline().metricsUrls().entrySet()) {
      final String metrics = http.send(HttpRequest.newBuilder(URI.create(app.getValue())).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      final String ready = app.getValue().replace("/metrics", "/ready");
      assertThat(http.send(HttpRequest.newBuilder(URI.create(ready)).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).as("%s ready", app.getKey()).isEqualTo(200);
      if (!"router".equals(app.getKey())) {
        assertThat(metrics.lines().filter(line -> line.startsWith("zerolayer_streams_thread_failures_total")))
            .as("%s's failed stream threads", app.getKey()).singleElement().asString().endsWith(" 0.0");
      }
    }
  }

  /** Five new requests are routed and answered. */
  private static void assertStillServing(final InferenceClient client, final String idPrefix) throws Exception {
    final List<CompletableFuture<Response>> answers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      answers.add(client.submit(InferenceRequest.newBuilder().setSequenceId(idPrefix + i).setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("still there?").setMaxOutputTokens(8).setSeed(i)
          .setSubmittedAtMs(System.currentTimeMillis()).build()));
    }
    for (final CompletableFuture<Response> answer : answers) {
      final Response response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.outcome()).as("outcome (reason: %s)", response.last().getReason())
          .isIn(RoutingOutcome.DIRECT, RoutingOutcome.CUTOVER);
      assertThat(response.tokens()).isNotEmpty();
    }
  }

  /** Waits for {@code count} dead letters; a timeout names those that came. */
  private static void awaitLetters(final RecordCollector<byte[], byte[]> letters, final int count) {
    try {
      letters.awaitUntil(records -> records.size() >= count, Duration.ofSeconds(60));
    } catch (final ConditionTimeoutException e) {
      throw new AssertionError(letters.records().size() + " of " + count + " dead letters came: " + letters.records()
          .stream().map(r -> header(r, DeadLetters.TOPIC) + " (" + header(r, DeadLetters.MESSAGE) + ")").toList(), e);
    }
  }

  /** The partition the default partitioner gives records keyed {@code key}. */
  private static int partitionOf(final String key, final Topic<String, ?> topic) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % topic.partitions();
  }

  /** A value of the topic's type with every field filled at random, as a writer that forgot the key would send. */
  private static byte[] wellFormed(final ContractSerdes serdes, final TopicCatalogue catalogue,
      final Topic<String, ?> topic, final Random random) {
    final Schema schema = SpecificData.get().getSchema(topic.valueType());
    final Object generic = new RandomData(schema, 1, random.nextLong()).iterator().next();
    return serialize(serdes, catalogue, topic, SpecificData.getForClass(topic.valueType()).deepCopy(schema, generic));
  }

  @SuppressWarnings("unchecked")
  private static byte[] serialize(final ContractSerdes serdes, final TopicCatalogue catalogue,
      final Topic<String, ?> topic, final Object value) {
    return serdes.value((Topic<String, SpecificRecord>) topic).serializer().serialize(catalogue.name(topic),
        (SpecificRecord) value);
  }

  /** Each topic's name three times. */
  private static String[] threeEach(final TopicCatalogue catalogue, final Stream<Topic<String, ?>> topics) {
    return topics.flatMap(t -> Stream.of(catalogue.name(t), catalogue.name(t), catalogue.name(t)))
        .toArray(String[]::new);
  }

  private static byte[] wire(final int schemaId, final byte[] body) {
    return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(schemaId).put(body).array();
  }

  private static List<String> originTopics(final List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream().map(r -> header(r, DeadLetters.TOPIC)).toList();
  }

  private static String header(final ConsumerRecord<byte[], byte[]> record, final String name) {
    final Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static KafkaProducer<byte[], byte[]> rawProducer(final ClusterSettings settings) {
    return new KafkaProducer<>(new HashMap<>(settings.clientProperties()), new ByteArraySerializer(),
        new ByteArraySerializer());
  }
}
