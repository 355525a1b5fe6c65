package io.zerolayer.runtime;

import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processing errors, chosen on purpose: a record a processor rejected as invalid
 * ({@link InvalidRecordException}, thrown before any state changed) goes to the dead-letter
 * topic with its original bytes and the reason, and the app goes on. Any other failure is not
 * bad input; skipping the record would keep state changes made before the failure and lose the
 * output, so the task fails: the transaction aborts and the record is processed again from the
 * last commit with its state restored.
 */
public final class DeadLetterInvalidRecords implements ProcessingExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterInvalidRecords.class);

  private String deadLetterTopic;

  @Override
  public void configure(final Map<String, ?> configs) {
    deadLetterTopic = DeadLetters.topicOf(configs, DeadLetterInvalidRecords.class);
  }

  @Override
  public Response handleError(final ErrorHandlerContext context, final Record<?, ?> record,
      final Exception exception) {
    if (exception instanceof InvalidRecordException invalid) {
      LOG.warn("Dead-lettering record {}-{}@{}: {}", context.topic(), context.partition(), context.offset(),
          invalid.getMessage());
      return Response.resume(List.of(DeadLetters.of(deadLetterTopic, context, invalid)));
    }
    LOG.error("Processing failed at {}-{}@{} in {}; the task fails and retries from the last commit",
        context.topic(), context.partition(), context.offset(), context.processorNodeId(), exception);
    return Response.fail();
  }
}
