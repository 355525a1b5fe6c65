package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryException;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the value schemas an app writes from the registry (registering them where the serdes
 * register) when the app starts, so that no first write of a kind asks the registry later. A first
 * write that asks waits for it inside an open transaction: several apps at once when a stack
 * starts, and, while the registry does not answer, longer than the transaction timeout, which
 * fences the writer (a router whose first throttled stream fell into a registry outage stopped so).
 */
public final class WrittenSchemas {

  private static final Logger LOG = LoggerFactory.getLogger(WrittenSchemas.class);

  private WrittenSchemas() {
  }

  /**
   * The schemas of a Streams app's changelogs.
   *
   * @param applicationId the Streams application id, which the changelogs' names start with
   * @param storeValues each logged store's name and the type of its values
   */
  public static void ofChangelogs(final ContractSerdes serdes, final String applicationId,
      final Map<String, Class<? extends SpecificRecord>> storeValues) {
    requireNonNull(applicationId, "applicationId");
    storeValues.forEach((store, type) -> readAhead(serdes, applicationId + "-" + store + "-changelog", type));
  }

  /** The value schemas of the catalogue's topics an app writes to. */
  public static void ofTopics(final ContractSerdes serdes, final TopicCatalogue catalogue,
      final Collection<Topic<String, ? extends SpecificRecord>> topics) {
    requireNonNull(catalogue, "catalogue");
    topics.forEach(topic -> readAhead(serdes, catalogue.name(topic), topic.valueType()));
  }

  private static void readAhead(final ContractSerdes serdes, final String topicName,
      final Class<? extends SpecificRecord> type) {
    requireNonNull(serdes, "serdes");
    try {
      serdes.valueSchemaId(topicName, type);
    } catch (final KafkaException | SchemaRegistryException e) {
      LOG.warn("Could not read the value schema of {} ahead ({}); its first write will", topicName, e.toString());
    }
  }
}
