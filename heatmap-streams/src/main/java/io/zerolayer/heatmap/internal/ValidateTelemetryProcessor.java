package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.runtime.InvalidRecordException;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Passes on only telemetry that can be true. A sample that cannot is rejected with an
 * {@link InvalidRecordException}, which the app's processing-exception handler sends to the
 * dead-letter topic with the reason, before any state is touched.
 */
public final class ValidateTelemetryProcessor
    implements Processor<String, InstanceTelemetry, String, InstanceTelemetry> {

  private final TelemetryValidator validator;
  private ProcessorContext<String, InstanceTelemetry> context;

  public ValidateTelemetryProcessor(final TelemetryValidator validator) {
    this.validator = requireNonNull(validator, "validator");
  }

  @Override
  public void init(final ProcessorContext<String, InstanceTelemetry> context) {
    this.context = context;
  }

  @Override
  public void process(final Record<String, InstanceTelemetry> record) {
    final InstanceTelemetry sample = record.value();
    if (sample == null) {
      throw new InvalidRecordException("telemetry record without a value (key " + record.key() + ")");
    }
    if (record.key() == null) {
      throw new InvalidRecordException("telemetry record without a key (its instance id)");
    }
    // The sample time is checked against the record's own timestamp (when it was produced), not
    // the clock at processing: a backlog read late, or read again, is judged as it was written.
    final List<String> problems = validator.problems(sample, record.timestamp());
    if (!problems.isEmpty()) {
      throw new InvalidRecordException("invalid telemetry of " + sample.getInstanceId() + ": "
          + String.join("; ", problems));
    }
    if (!sample.getInstanceId().equals(record.key())) {
      throw new InvalidRecordException("telemetry of " + sample.getInstanceId() + " keyed by " + record.key()
          + ": the key must be the instance id");
    }
    context.forward(record);
  }
}
