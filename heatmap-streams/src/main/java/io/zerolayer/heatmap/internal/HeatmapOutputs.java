package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceScore;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Where the scoring processor's records go: one named child per output topic. */
public final class HeatmapOutputs {

  public static final String WRITE_SCORES = "write-instance-scores";
  public static final String WRITE_STATUS_EVENTS = "write-status-events";
  public static final String WRITE_COMMANDS = "write-instance-commands";

  private final ProcessorContext<String, Object> context;
  private final StatusEvents events;

  HeatmapOutputs(final ProcessorContext<String, Object> context, final StatusEvents events) {
    this.context = requireNonNull(context, "context");
    this.events = requireNonNull(events, "events");
  }

  long now() {
    return context.currentSystemTimeMs();
  }

  /** The event of the assessment's transition, and its {@code PRE_CLEAR}, if any. */
  void publish(final String instanceId, final Assessment assessment) {
    if (assessment.transition() != null) {
      event(assessment.transition());
    }
    if (assessment.preClear()) {
      final long nowMs = now();
      context.forward(new Record<>(instanceId, InstanceCommand.newBuilder().setInstanceId(instanceId)
          .setType(CommandType.PRE_CLEAR).setReason(assessment.machine().reason()).setIssuedAtMs(nowMs).build(),
          nowMs), WRITE_COMMANDS);
    }
  }

  void event(final Transition transition) {
    context.forward(new Record<>(transition.subject(), events.of(transition), transition.atMs()), WRITE_STATUS_EVENTS);
  }

  /** Removes an instance from the compacted score topic. */
  void tombstone(final String instanceId, final long nowMs) {
    context.forward(new Record<>(instanceId, null, nowMs), WRITE_SCORES);
  }

  void row(final String instanceId, final InstanceScore row) {
    context.forward(new Record<>(instanceId, row, row.getUpdatedAtMs()), WRITE_SCORES);
  }

  /**
   * A row that routers must act on at once: forwarded, and the task's transaction committed as
   * soon as the thread finishes its current records instead of at the next commit interval (up
   * to 100 ms later), since routers read the scores committed only.
   */
  void urgentRow(final String instanceId, final InstanceScore row) {
    row(instanceId, row);
    context.commit();
  }
}
