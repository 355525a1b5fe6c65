package io.zerolayer.contract.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the Confluent wire format into generated classes. The writer's schema comes from the
 * registry by the id in the record; the reader's schema is the class's own, so consumers built
 * with older classes read records written with newer, compatible schemas. Anything that is
 * not a valid record fails with a {@link SerializationException} that says why.
 *
 * @param <T> record type
 */
public final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

  // Resolving a writer's schema against the reader's is costly; one reader per schema id serves
  // every record (readers are thread-safe).
  private final Map<Integer, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();
  private SchemaRegistryClient registry;
  private Schema readerSchema;
  private boolean ownsRegistry;

  /** For Kafka's reflective construction: reads into the class the writer's schema names. */
  public AvroDeserializer() {
  }

  AvroDeserializer(final SchemaRegistryClient registry, final Class<T> type) {
    this.registry = registry;
    this.readerSchema = SpecificData.get().getSchema(type);
  }

  @Override
  public void configure(final Map<String, ?> configs, final boolean isKey) {
    if (registry == null) {
      registry = SchemaRegistryClients.create(SerdeConfig.from(configs));
      ownsRegistry = true;
    }
  }

  @Override
  public T deserialize(final String topic, final byte[] data) {
    if (data == null) {
      return null;
    }
    if (data.length < 5 || data[0] != AvroSerializer.MAGIC_BYTE) {
      throw new SerializationException("Record on " + topic + " is not in the schema-registry wire format"
          + " (expected magic byte 0 and a 4-byte schema id, got " + data.length + " bytes)");
    }
    final int id = ByteBuffer.wrap(data, 1, 4).getInt();
    final Schema writerSchema;
    try {
      writerSchema = registry.schemaById(id);
    } catch (final SchemaRegistryException e) {
      if (SchemaRegistryUnavailableException.isTransient(e)) {
        throw new SchemaRegistryUnavailableException("Cannot read a record on " + topic + " now: " + e.getMessage(), e);
      }
      throw new SerializationException("Record on " + topic + " names schema id " + id
          + " that the registry cannot give: " + e.getMessage(), e);
    }
    final Schema reader = readerSchema != null ? readerSchema : readerFor(writerSchema);
    final BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, 5, data.length - 5, null);
    try {
      final T value = readers.computeIfAbsent(id, any -> new SpecificDatumReader<>(writerSchema, reader))
          .read(null, decoder);
      if (!decoder.isEnd()) {
        throw new SerializationException("Record on " + topic + " has bytes left over after a "
            + writerSchema.getFullName());
      }
      return value;
    } catch (final IOException | AvroRuntimeException | ClassCastException | IndexOutOfBoundsException e) {
      throw new SerializationException("Record on " + topic + " does not match its schema "
          + writerSchema.getFullName() + " (id " + id + "): " + e, e);
    }
  }

  private static Schema readerFor(final Schema writerSchema) {
    final Class<?> type = SpecificData.get().getClass(writerSchema);
    if (type == null) {
      throw new SerializationException("No generated class for " + writerSchema.getFullName() + " on the classpath");
    }
    return SpecificData.get().getSchema(type);
  }

  @Override
  public void close() {
    if (ownsRegistry) {
      registry.close();
    }
  }
}
