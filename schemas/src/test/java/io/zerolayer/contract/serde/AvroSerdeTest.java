package io.zerolayer.contract.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.ZoneState;
import io.zerolayer.contract.topic.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

  private static final String TOPIC = "instance.commands.v1";

  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private final Serde<InstanceCommand> commands = serdes.value(Topics.COMMANDS);

  @Test
  void shouldWriteTheConfluentWireFormatAndReadItBack() {
    final byte[] bytes = commands.serializer().serialize(TOPIC, command());

    assertThat(bytes[0]).isZero();
    final int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    assertThat(serdes.registry().schemaById(id)).isEqualTo(InstanceCommand.getClassSchema());
    assertThat(commands.deserializer().deserialize(TOPIC, bytes)).isEqualTo(command());
  }

  @Test
  void shouldWriteTheSameBytesWithTheGeneratedEncoderAsTheSchemaWalkingWriter() throws Exception {
    final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("seq-1").setTenantId("acme")
        .setModel("llama").setMessages(List.of(new ChatMessage("system", "be brief"), new ChatMessage("user", "hi")))
        .setMaxOutputTokens(64).setSeed(-7).setSessionId("chat-9").setSubmittedAtMs(1_700_000_000_000L).build();
    final TelemetryHistory history = new TelemetryHistory(3L, List.of(1.5, -2.0), List.of(0.0, 9.25),
        List.of(ByteBuffer.wrap(new byte[] {1, 2, 3}), ByteBuffer.allocate(0)));

    for (final SpecificRecord record : List.of(request, history, command())) {
      final byte[] bytes = new AvroSerializer<>(serdes.registry(), true)
          .serialize(record.getSchema().getName(), record);
      assertThat(Arrays.copyOfRange(bytes, 5, bytes.length)).as(record.getSchema().getName())
          .isEqualTo(walked(record));
    }
  }

  @Test
  void shouldRefuseBytesThatAreNotTheWireFormat() {
    assertThatThrownBy(() -> commands.deserializer().deserialize(TOPIC, "hello".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("not in the schema-registry wire format");
  }

  @Test
  void shouldRefuseAnUnknownSchemaId() {
    final byte[] bytes = ByteBuffer.allocate(6).put((byte) 0).putInt(4242).put((byte) 2).array();

    assertThatThrownBy(() -> commands.deserializer().deserialize(TOPIC, bytes))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("schema id 4242");
  }

  @Test
  void shouldRefuseAValueThatBreaksItsSchema() {
    final byte[] good = commands.serializer().serialize(TOPIC, command());
    final byte[] broken = ByteBuffer.allocate(6).put(good, 0, 5).put((byte) 1).array();

    assertThatThrownBy(() -> commands.deserializer().deserialize(TOPIC, broken))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("does not match its schema");
  }

  @Test
  void shouldRefuseAnIncompatibleSchemaAndAcceptANewOptionalField() {
    commands.serializer().serialize(TOPIC, command());
    final String subject = TOPIC + "-value";

    assertThatThrownBy(() -> serdes.registry().register(subject, withField("{\"name\": \"x\", \"type\": \"int\"}")))
        .isInstanceOf(SchemaRegistryException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
    assertThat(serdes.registry().register(subject,
        withField("{\"name\": \"x\", \"type\": [\"null\", \"int\"], \"default\": null}"))).isPositive();
  }

  @Test
  void shouldReadARecordWrittenWithANewerCompatibleSchemaIntoTheOldClass() throws Exception {
    final Schema newer = withField("{\"name\": \"priority\", \"type\": [\"null\", \"int\"], \"default\": null}");
    final int id = serdes.registry().register(TOPIC + "-value", newer);
    final GenericRecord record = genericCommand(newer, "PRE_WARM");
    record.put("priority", 3);

    final InstanceCommand read = commands.deserializer().deserialize(TOPIC, wire(id, newer, record));

    assertThat(read.getInstanceId()).isEqualTo("gpu-1");
    assertThat(read.getType()).isEqualTo(CommandType.PRE_WARM);
  }

  @Test
  void shouldReadACommandTypeANewerWriterAddedAsUnknownRatherThanFail() throws Exception {
    final Schema newer = new Schema.Parser().parse(InstanceCommand.getClassSchema().toString()
        .replace("\"CANCEL\",\"UNKNOWN\"]", "\"CANCEL\",\"UNKNOWN\",\"DRAIN\"]"));
    assertThat(newer.getField("type").schema().getEnumSymbols()).contains("DRAIN");
    final int id = serdes.registry().register(TOPIC + "-value", newer);
    final GenericRecord record = genericCommand(newer, "DRAIN");

    final InstanceCommand read = commands.deserializer().deserialize(TOPIC, wire(id, newer, record));

    assertThat(read.getType()).isEqualTo(CommandType.UNKNOWN);
  }

  @Test
  void shouldGiveEveryEnumOfTheContractADefaultForSymbolsANewerWriterAdds() {
    for (final Schema schema : List.of(RoutingOutcome.getClassSchema(), CommandType.getClassSchema(),
        CompletionOutcome.getClassSchema(), InstanceState.getClassSchema(), ZoneState.getClassSchema())) {
      assertThat(schema.getEnumDefault()).as(schema.getName()).isNotNull();
    }
  }

  @Test
  void shouldTellARegistryOutageFromABadRecord() {
    final byte[] bytes = commands.serializer().serialize(TOPIC, command());
    final AvroDeserializer<InstanceCommand> reader = new AvroDeserializer<>(new DownRegistry(), InstanceCommand.class);

    assertThatThrownBy(() -> reader.deserialize(TOPIC, bytes))
        .isInstanceOf(SchemaRegistryUnavailableException.class)
        .isNotInstanceOf(SerializationException.class);
  }

  /** A registry that answers every call with HTTP 503. */
  private static final class DownRegistry implements SchemaRegistryClient {
    @Override
    public int register(final String subject, final Schema schema) {
      throw new SchemaRegistryException(503, "unavailable");
    }

    @Override
    public int idOf(final String subject, final Schema schema) {
      throw new SchemaRegistryException(503, "unavailable");
    }

    @Override
    public Schema schemaById(final int id) {
      throw new SchemaRegistryException(503, "unavailable");
    }

    @Override
    public void setCompatibility(final String subject, final String level) {
      throw new SchemaRegistryException(503, "unavailable");
    }

    @Override
    public void close() {
    }
  }

  private static byte[] walked(final SpecificRecord record) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static Schema withField(final String field) {
    final String base = InstanceCommand.getClassSchema().toString();
    final int end = base.lastIndexOf(']');
    return new Schema.Parser().parse(base.substring(0, end) + "," + field + base.substring(end));
  }

  /** A command of gpu-1 written with {@code schema}, of that type. */
  private static GenericRecord genericCommand(final Schema schema, final String type) {
    final GenericRecord record = new GenericData.Record(schema);
    record.put("instanceId", "gpu-1");
    record.put("type", new GenericData.EnumSymbol(schema.getField("type").schema(), type));
    record.put("reason", "cold");
    record.put("endsSequence", false);
    record.put("issuedAtMs", 5L);
    return record;
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

  private static InstanceCommand command() {
    return InstanceCommand.newBuilder().setInstanceId("gpu-1").setType(CommandType.CANCEL).setSequenceId("s")
        .setEpoch(2).setReason("stale").setIssuedAtMs(5).build();
  }
}
