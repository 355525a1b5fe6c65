package io.zerolayer.tokenbuffer.internal;

import org.apache.avro.specific.SpecificRecord;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * Sends each response chunk to the reply topic its request named, or to the catalogue's
 * response topic. Processors name the reply topic in a header, since the chunk itself does not
 * carry it.
 */
public final class ReplyTopics implements TopicNameExtractor<String, SpecificRecord> {

  static final String HEADER = "zerolayer.reply-topic";

  private final String defaultTopic;

  public ReplyTopics(final String defaultTopic) {
    this.defaultTopic = defaultTopic;
  }

  /** Headers that send a record to {@code replyTopic}, or to the default when it is null. */
  static Headers headersFor(final String replyTopic) {
    final RecordHeaders headers = new RecordHeaders();
    if (replyTopic != null && !replyTopic.isBlank()) {
      headers.add(HEADER, replyTopic.getBytes(StandardCharsets.UTF_8));
    }
    return headers;
  }

  @Override
  public String extract(final String key, final SpecificRecord value, final RecordContext context) {
    final Header header = context.headers().lastHeader(HEADER);
    return header == null ? defaultTopic : new String(header.value(), StandardCharsets.UTF_8);
  }

  /** Stable, so the topology's description (and its golden file) does not change from run to run. */
  @Override
  public String toString() {
    return "reply topic of the request, else " + defaultTopic;
  }
}
