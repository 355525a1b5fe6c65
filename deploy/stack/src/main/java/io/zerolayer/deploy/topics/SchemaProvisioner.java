package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.SchemaRegistryClient;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Registers the value schema of every Avro topic of the catalogue under {@code <topic>-value},
 * one at a time, before any app writes. Apps then find their schemas registered (and a
 * deployment may run them with {@code auto.register.schemas=false}); a schema the registry
 * refuses as incompatible stops the deployment here, not in the middle of traffic.
 */
public final class SchemaProvisioner {

  private final SchemaRegistryClient registry;
  private final TopicCatalogue catalogue;

  public SchemaProvisioner(final SchemaRegistryClient registry, final TopicCatalogue catalogue) {
    this.registry = requireNonNull(registry, "registry");
    this.catalogue = requireNonNull(catalogue, "catalogue");
  }

  /** Registers the schemas; returns the subjects. */
  public List<String> register() {
    final List<String> subjects = new ArrayList<>();
    for (final Topic<?, ?> topic : catalogue.all()) {
      if (SpecificRecord.class.isAssignableFrom(topic.valueType())) {
        final String subject = catalogue.name(topic) + "-value";
        registry.register(subject, SpecificData.get().getSchema(topic.valueType()));
        subjects.add(subject);
      }
    }
    return subjects;
  }
}
