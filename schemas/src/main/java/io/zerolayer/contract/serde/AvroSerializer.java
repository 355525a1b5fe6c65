package io.zerolayer.contract.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records in the Confluent wire format: magic byte 0, the 4-byte schema id, Avro
 * binary. The subject is {@code <topic>-value} (Confluent's TopicNameStrategy).
 *
 * @param <T> record type
 */
public final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {

  static final byte MAGIC_BYTE = 0;

  // Building a writer resolves the schema; one per schema serves every record (writers are thread-safe).
  private final Map<Schema, SpecificDatumWriter<T>> writers = new ConcurrentHashMap<>();
  private final SpecificData data = encodingWithGeneratedCode();
  private SchemaRegistryClient registry;
  private boolean autoRegister;
  private boolean ownsRegistry;

  /** For Kafka's reflective construction; {@link #configure} then reads the Confluent keys. */
  public AvroSerializer() {
  }

  AvroSerializer(final SchemaRegistryClient registry, final boolean autoRegister) {
    this.registry = registry;
    this.autoRegister = autoRegister;
  }

  @Override
  public void configure(final Map<String, ?> configs, final boolean isKey) {
    if (registry == null) {
      final SerdeConfig config = SerdeConfig.from(configs);
      registry = SchemaRegistryClients.create(config);
      autoRegister = config.autoRegister();
      ownsRegistry = true;
    }
  }

  /** The id under which records of that schema are written to the topic, registered if this serializer does. */
  int schemaId(final String topic, final Schema schema) {
    final String subject = topic + "-value";
    try {
      return autoRegister ? registry.register(subject, schema) : registry.idOf(subject, schema);
    } catch (final SchemaRegistryException e) {
      if (SchemaRegistryUnavailableException.isTransient(e)) {
        throw new SchemaRegistryUnavailableException("Cannot write a record to " + topic + " now: " + e.getMessage(), e);
      }
      throw new SerializationException("Cannot get a schema id for subject " + subject + ": " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] serialize(final String topic, final T record) {
    if (record == null) {
      return null;
    }
    final int id = schemaId(topic, record.getSchema());
    final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    out.write(MAGIC_BYTE);
    out.writeBytes(ByteBuffer.allocate(Integer.BYTES).putInt(id).array());
    final BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      writers.computeIfAbsent(record.getSchema(), schema -> new SpecificDatumWriter<>(schema, data))
          .write(record, encoder);
      encoder.flush();
    } catch (final IOException | RuntimeException e) {
      throw new SerializationException("Cannot write " + record.getSchema().getFullName() + " for topic "
          + topic + ": " + e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /**
   * Avro's generated classes carry their own encoder ({@code customEncode}), which writes the same
   * bytes as the generic writer without walking the schema field by field; Avro leaves it off unless
   * asked. The heatmap writes its instance state on every sample, so the difference counts.
   */
  private static SpecificData encodingWithGeneratedCode() {
    final SpecificData data = new SpecificData();
    data.setCustomCoders(true);
    return data;
  }

  @Override
  public void close() {
    if (ownsRegistry) {
      registry.close();
    }
  }
}
