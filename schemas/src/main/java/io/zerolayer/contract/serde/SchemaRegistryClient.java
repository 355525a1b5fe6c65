package io.zerolayer.contract.serde;

import org.apache.avro.Schema;

/**
 * The part of the Confluent Schema Registry REST API that Zerolayer uses. Confluent Schema
 * Registry, Apicurio ({@code /apis/ccompat/v7}), Karapace and Redpanda all serve it.
 * Implementations are thread-safe and cache what never changes (ids and schemas).
 */
public interface SchemaRegistryClient extends AutoCloseable {

  /**
   * Registers a schema under a subject, or finds it if it is already there.
   *
   * @return the schema's global id
   * @throws SchemaRegistryException when the registry refuses it, for example because it is
   *     not compatible with the subject's earlier versions (HTTP 409)
   */
  int register(String subject, Schema schema);

  /**
   * Looks up the id of a schema already registered under a subject, without registering it.
   *
   * @throws SchemaRegistryException with status 404 when it is not registered
   */
  int idOf(String subject, Schema schema);

  /**
   * The schema with this global id.
   *
   * @throws SchemaRegistryException with status 404 when no schema has the id
   */
  Schema schemaById(int id);

  /**
   * Sets the compatibility level ({@code BACKWARD}, {@code FULL}, {@code NONE}, ...) of one
   * subject, or the global default when {@code subject} is null.
   */
  void setCompatibility(String subject, String level);

  @Override
  void close();
}
