package io.zerolayer.heatmap.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonCloudEventData;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Builds the {@code routing_status_changed} CloudEvent (CloudEvents 1.0) of a state transition.
 * Events are written in the app's exactly-once transactions, so a read-committed consumer sees
 * each transition once; the id is unique per event.
 */
public final class StatusEvents {

  /** The CloudEvents {@code type} of every status event. */
  public static final String TYPE = "routing_status_changed";
  /** The CloudEvents {@code source} of events from heatmap-streams. */
  public static final URI SOURCE = URI.create("/zerolayer/heatmap-streams");

  private final ObjectMapper json = new ObjectMapper();

  /** The event of one transition. */
  public CloudEvent of(final Transition transition) {
    final ObjectNode data = json.createObjectNode()
        .put("kind", transition.kind())
        .put("zone", transition.zone())
        .put("oldState", transition.from())
        .put("newState", transition.to())
        .put("reason", transition.reason());
    final ObjectNode metrics = data.putObject("metrics");
    transition.metrics().forEach(metrics::put);
    return CloudEventBuilder.v1()
        .withId(UUID.randomUUID().toString())
        .withSource(SOURCE)
        .withType(TYPE)
        .withSubject(transition.subject())
        .withTime(Instant.ofEpochMilli(transition.atMs()).atOffset(ZoneOffset.UTC))
        .withDataContentType("application/json")
        .withData(JsonCloudEventData.wrap(data))
        .build();
  }
}
