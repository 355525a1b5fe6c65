package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryException;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class SchemaEvolutionIT {

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldRefuseASchemaThatBreaksBackwardCompatibility(final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).withoutPipeline().start()) {
      final String subject = rig.catalogue().name(Topics.TELEMETRY) + "-value";
      final ContractSerdes serdes = rig.serdes();
      serdes.registry().register(subject, InstanceTelemetry.getClassSchema());

      assertThatThrownBy(() -> serdes.registry().register(subject, withField(
          "{\"name\": \"rackId\", \"type\": \"string\"}")))
          .isInstanceOf(SchemaRegistryException.class)
          .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldLetConsumersBuiltWithTheOldClassesReadANewOptionalField(final TestCluster.Handle cluster)
      throws Exception {
    // Given the heatmap app, built with today's InstanceTelemetry class
    final Schema evolved = withField("{\"name\": \"firmware\", \"type\": [\"null\", \"string\"], \"default\": null}");
    try (PipelineRig rig = PipelineRig.on(cluster).start()) {
      final String topic = rig.catalogue().name(Topics.TELEMETRY);
      final ContractSerdes serdes = rig.serdes();
      final KafkaProducer<String, byte[]> producer = rig.open(new KafkaProducer<>(
          new HashMap<>(rig.settings().clientProperties()), new StringSerializer(), new ByteArraySerializer()));
      final RecordCollector<String, InstanceScore> scores = rig.collect(Topics.INSTANCE_SCORES);
      serdes.registry().register(topic + "-value", InstanceTelemetry.getClassSchema());

      // When a newer producer registers a compatible schema with a new optional field and writes with it
      final int id = serdes.registry().register(topic + "-value", evolved);
      final byte[] value = wire(id, evolved, telemetry(evolved, "gpu-new"));
      producer.send(new ProducerRecord<>(topic, "gpu-new", value)).get();

      // Then the old classes read it, and the app built with them scores the instance
      final InstanceTelemetry read = serdes.value(Topics.TELEMETRY).deserializer().deserialize(topic, value);
      assertThat(read.getInstanceId()).isEqualTo("gpu-new");
      assertThat(read.getVramFragmentation()).isEqualTo(0.2);
      scores.awaitUntil(records -> records.stream().anyMatch(r -> r.key().equals("gpu-new")), Duration.ofSeconds(30));
    }
  }

  private static Schema withField(final String field) {
    final String base = InstanceTelemetry.getClassSchema().toString();
    final int end = base.lastIndexOf(']');
    return new Schema.Parser().parse(base.substring(0, end) + "," + field + base.substring(end));
  }

  /** A sample as the newer producer writes it; the fields it leaves out (the optional ones) take their defaults. */
  private static GenericRecord telemetry(final Schema schema, final String instance) {
    return new GenericRecordBuilder(schema)
        .set("instanceId", instance)
        .set("zone", "zone-a")
        .set("model", "sim")
        .set("sampleTimeMs", System.currentTimeMillis())
        .set("gpuUtilization", 0.5)
        .set("vramUsedBytes", 1L << 30)
        .set("vramFragmentation", 0.2)
        .set("kvCacheHitRate", 0.4)
        .set("kvWarmupLevel", 1.0)
        .set("ncclRingLatencyMs", 0.3)
        .set("tcpRetransmitRate", 0.0)
        .set("queueLength", 0)
        .set("runningRequests", 1)
        .set("decodeTokensPerS", 500.0)
        .set("tokenIntervalStddevMs", 3.0)
        .set("allocationErrors", 0)
        .set("firmware", "550.54")
        .build();
  }

  private static byte[] wire(final int id, final Schema schema, final GenericRecord record) throws Exception {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
