package io.zerolayer.contract.serde;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.topic.Topic;
import java.time.Duration;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serdes for the catalogue's topics, all sharing one registry client (and its caches). Keys
 * are plain strings.
 */
public final class ContractSerdes implements AutoCloseable {

  private final SchemaRegistryClient registry;
  private final boolean autoRegister;

  public ContractSerdes(final SerdeConfig config) {
    this(SchemaRegistryClients.create(requireNonNull(config, "config")), config.autoRegister());
  }

  /**
   * Serdes whose registry calls give up after {@code registryPatience} while the registry does
   * not answer, so that a caller holding a Kafka transaction open aborts it itself.
   */
  public ContractSerdes(final SerdeConfig config, final Duration registryPatience) {
    this(SchemaRegistryClients.create(requireNonNull(config, "config"), registryPatience), config.autoRegister());
  }

  ContractSerdes(final SchemaRegistryClient registry, final boolean autoRegister) {
    this.registry = requireNonNull(registry, "registry");
    this.autoRegister = autoRegister;
  }

  /** Serdes over a fresh in-process registry, for unit tests. */
  public static ContractSerdes inMemory() {
    return new ContractSerdes(new SerdeConfig("mock://unit", true, null));
  }

  /** The value serde of an Avro topic. */
  public <V extends SpecificRecord> Serde<V> value(final Topic<String, V> topic) {
    return value(topic.valueType());
  }

  /** The serde of one record type. */
  public <V extends SpecificRecord> Serde<V> value(final Class<V> type) {
    return Serdes.serdeFrom(new AvroSerializer<>(registry, autoRegister), new AvroDeserializer<>(registry, type));
  }

  /** One serializer for records of any type, for a producer that writes to several topics. */
  public Serializer<SpecificRecord> anyRecordSerializer() {
    return new AvroSerializer<>(registry, autoRegister);
  }

  /**
   * Gets the id of a topic's value schema now, registering it where these serdes register: a
   * writer that does so when it starts keeps its first record from waiting for the registry.
   *
   * @param topicName the topic's name in the catalogue in use
   */
  public int valueSchemaId(final String topicName, final Topic<String, ? extends SpecificRecord> topic) {
    return valueSchemaId(topicName, topic.valueType());
  }

  /**
   * Gets the id of the schema of records of {@code type} written to {@code topicName} now, as
   * {@link #valueSchemaId(String, Topic)} does, for a topic outside the catalogue (a changelog).
   */
  public int valueSchemaId(final String topicName, final Class<? extends SpecificRecord> type) {
    return new AvroSerializer<>(registry, autoRegister).schemaId(topicName, SpecificData.get().getSchema(type));
  }

  /** The key serde of every catalogue topic but the dead-letter ones. */
  public Serde<String> key() {
    return Serdes.String();
  }

  /** The registry client these serdes share. */
  public SchemaRegistryClient registry() {
    return registry;
  }

  @Override
  public void close() {
    registry.close();
  }
}
