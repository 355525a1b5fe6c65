package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryException;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the value schemas of a Streams app's changelogs from the registry (registering them where
 * the serdes register) before the app starts. Otherwise each store's first write asks the registry,
 * several apps at once when a stack starts, inside a task that fails and starts over if the
 * registry is slow to answer.
 */
public final class ChangelogSchemas {

  private static final Logger LOG = LoggerFactory.getLogger(ChangelogSchemas.class);

  private ChangelogSchemas() {
  }

  /**
   * @param applicationId the Streams application id, which the changelogs' names start with
   * @param storeValues each logged store's name and the type of its values
   */
  public static void readAhead(final ContractSerdes serdes, final String applicationId,
      final Map<String, Class<? extends SpecificRecord>> storeValues) {
    requireNonNull(serdes, "serdes");
    requireNonNull(applicationId, "applicationId");
    storeValues.forEach((store, type) -> {
      final String changelog = applicationId + "-" + store + "-changelog";
      try {
        serdes.valueSchemaId(changelog, type);
      } catch (final KafkaException | SchemaRegistryException e) {
        LOG.warn("Could not read the value schema of {} ahead ({}); its first write will", changelog, e.toString());
      }
    });
  }
}
