package io.zerolayer.runtime;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' log-and-continue handler (bad records to the dead-letter topic), except when
 * the record could not be read only because the schema registry was down: then the task fails,
 * the thread is replaced, and the record is read again, instead of being dead-lettered.
 */
public final class RetryOnRegistryOutage extends LogAndContinueExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(RetryOnRegistryOutage.class);

  @Override
  public DeserializationExceptionHandler.Response handleError(final ErrorHandlerContext context,
      final ConsumerRecord<byte[], byte[]> record, final Exception exception) {
    if (SchemaRegistryUnavailableException.causedBy(exception)) {
      LOG.warn("Schema registry unavailable reading {}-{}@{}; the task retries it: {}", record.topic(),
          record.partition(), record.offset(), exception.getMessage());
      return DeserializationExceptionHandler.Response.fail();
    }
    return super.handleError(context, record, exception);
  }
}
