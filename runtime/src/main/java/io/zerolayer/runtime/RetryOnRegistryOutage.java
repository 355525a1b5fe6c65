package io.zerolayer.runtime;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that cannot be read goes to the dead-letter topic ({@link DeadLetters}: the reason in
 * Kafka Streams' own headers, a value near the broker's limit cut short so that the letter can be
 * written) and the app goes on; except when it could not be read only because the schema
 * registry was down: then the task fails, the thread is replaced, and the record is read again.
 */
public final class RetryOnRegistryOutage implements DeserializationExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(RetryOnRegistryOutage.class);

  private String deadLetterTopic;

  @Override
  public void configure(final Map<String, ?> configs) {
    deadLetterTopic = DeadLetters.topicOf(configs, RetryOnRegistryOutage.class);
  }

  @Override
  public DeserializationExceptionHandler.Response handleError(final ErrorHandlerContext context,
      final ConsumerRecord<byte[], byte[]> record, final Exception exception) {
    if (SchemaRegistryUnavailableException.causedBy(exception)) {
      LOG.warn("Schema registry unavailable reading {}-{}@{}; the task retries it: {}", record.topic(),
          record.partition(), record.offset(), exception.getMessage());
      return DeserializationExceptionHandler.Response.fail();
    }
    LOG.warn("Dead-lettering unreadable record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
        exception.getMessage());
    return DeserializationExceptionHandler.Response.resume(List.of(DeadLetters.of(deadLetterTopic, record,
        exception)));
  }
}
