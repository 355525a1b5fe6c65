package io.zerolayer.worker.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServerSentEventsTest {

  private final AtomicInteger firstLines = new AtomicInteger();

  private List<String> events(final String stream) throws Exception {
    final ServerSentEvents events = new ServerSentEvents(
        new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), firstLines::incrementAndGet);
    final List<String> data = new ArrayList<>();
    for (String event = events.next(); event != null; event = events.next()) {
      data.add(event);
    }
    return data;
  }

  @Test
  void shouldReadOneEventPerBlankLineSeparatedBlock() throws Exception {
    assertThat(events("data: {\"a\":1}\n\ndata: [DONE]\n\n")).containsExactly("{\"a\":1}", "[DONE]");
    assertThat(firstLines).hasValue(1);
  }

  @Test
  void shouldSkipCommentsAndOtherFieldsAndJoinMultiLineData() throws Exception {
    assertThat(events(": keep-alive\n\nevent: completion\nid: 3\ndata: first\ndata:second\nretry: 10\n\n"))
        .containsExactly("first\nsecond");
  }

  @Test
  void shouldAcceptCrLfLineEndsAndALastEventWithoutBlankLine() throws Exception {
    assertThat(events("data: x\r\n\r\ndata: y")).containsExactly("x", "y");
  }

  @Test
  void shouldKeepSpacesAfterTheFirstAndMultiByteCharacters() throws Exception {
    assertThat(events("data:   café 日本 🚀\n\n")).containsExactly("  café 日本 🚀");
  }

  @Test
  void shouldReadNothingFromAnEmptyStream() throws Exception {
    assertThat(events("")).isEmpty();
    assertThat(firstLines).hasValue(0);
  }
}
