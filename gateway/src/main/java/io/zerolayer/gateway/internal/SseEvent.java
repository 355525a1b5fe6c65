package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

/**
 * One server-sent event.
 *
 * @param id the event id a client sends back as {@code Last-Event-ID} to resume, or null
 * @param event the event type (Anthropic's stream names each), or null
 * @param data the data line: one line of JSON, or {@code [DONE]}
 */
public record SseEvent(String id, String event, String data) {

  public SseEvent {
    requireNonNull(data, "data");
    if (data.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("An event's data must be one line");
    }
  }

  public static SseEvent data(final String data) {
    return new SseEvent(null, null, data);
  }

  public SseEvent withId(final String newId) {
    return new SseEvent(newId, event, data);
  }

  /** The event as written on the wire, ending with its blank line. */
  public byte[] bytes() {
    final StringBuilder wire = new StringBuilder(data.length() + 48);
    if (id != null) {
      wire.append("id: ").append(id).append('\n');
    }
    if (event != null) {
      wire.append("event: ").append(event).append('\n');
    }
    wire.append("data: ").append(data).append("\n\n");
    return wire.toString().getBytes(StandardCharsets.UTF_8);
  }
}
