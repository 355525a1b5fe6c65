package io.zerolayer.contract.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * The in-process registry behind {@code mock://} URLs, for unit tests only. It checks
 * {@code BACKWARD} compatibility against the subject's latest version, like the default of a
 * real registry, so tests see the same refusals.
 */
final class InMemorySchemaRegistry implements SchemaRegistryClient {

  private final Map<Integer, Schema> schemasById = new HashMap<>();
  private final Map<Schema, Integer> idsBySchema = new HashMap<>();
  private final Map<String, List<Schema>> versionsBySubject = new HashMap<>();
  private final Map<String, String> compatibilityBySubject = new HashMap<>();
  private String globalCompatibility = "BACKWARD";

  @Override
  public synchronized int register(final String subject, final Schema schema) {
    final List<Schema> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
    if (versions.contains(schema)) {
      return idsBySchema.get(schema);
    }
    final String level = compatibilityBySubject.getOrDefault(subject, globalCompatibility);
    if (!versions.isEmpty() && level.startsWith("BACKWARD")) {
      final Schema latest = versions.get(versions.size() - 1);
      final SchemaCompatibilityType result =
          SchemaCompatibility.checkReaderWriterCompatibility(schema, latest).getType();
      if (result != SchemaCompatibilityType.COMPATIBLE) {
        throw new SchemaRegistryException(409, "Schema being registered is incompatible with an earlier schema"
            + " for subject " + subject);
      }
    }
    versions.add(schema);
    final int id = idsBySchema.computeIfAbsent(schema, s -> idsBySchema.size() + 1);
    schemasById.put(id, schema);
    return id;
  }

  @Override
  public synchronized int idOf(final String subject, final Schema schema) {
    final List<Schema> versions = versionsBySubject.getOrDefault(subject, List.of());
    if (!versions.contains(schema)) {
      throw new SchemaRegistryException(404, "Schema not found under subject " + subject);
    }
    return idsBySchema.get(schema);
  }

  @Override
  public synchronized Schema schemaById(final int id) {
    final Schema schema = schemasById.get(id);
    if (schema == null) {
      throw new SchemaRegistryException(404, "Schema " + id + " not found");
    }
    return schema;
  }

  @Override
  public synchronized void setCompatibility(final String subject, final String level) {
    if (subject == null) {
      globalCompatibility = level;
    } else {
      compatibilityBySubject.put(subject, level);
    }
  }

  @Override
  public void close() {
  }
}
