package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * How far the app's stream threads read behind the end of the tokens topic, partition by
 * partition: the {@code records-lag} their consumers saw in their last fetch. A task that far
 * behind would read its own backlog as the engines' silence: at 100 requests/s on a saturated
 * broker, token-buffer reported answers finished for seconds as stalled, and they were generated
 * again. Offsets, unlike the records' timestamps, do not depend on the writers' clocks. The lag
 * is the consumer's (its fetch position against the end): it stays as the last fetch left it
 * while Kafka Streams pauses a partition whose buffer is full, and a backlog that fits in that
 * buffer does not show. Read at most every {@value #REFRESH_MS} ms; shared by every task of the app.
 */
public final class InputLag {

  private static final long REFRESH_MS = 250;
  private static final String RECORDS_LAG = "records-lag";

  private final String topic;
  /** The topic as the consumer's metrics tag it: periods as underscores. */
  private final String topicTag;
  private final long behindRecords;
  private volatile Supplier<Map<MetricName, ? extends Metric>> metrics = Map::of;
  /** The lags of the last read; null before the first. */
  private Map<Integer, Double> lags;
  private long readAtMs;

  /**
   * @param topic the tokens topic's name
   * @param behindRecords a task more records than this behind the end is behind
   */
  public InputLag(final String topic, final long behindRecords) {
    this.topic = requireNonNull(topic, "topic");
    this.topicTag = topic.replace('.', '_');
    this.behindRecords = behindRecords;
  }

  /** Reads the lag from these client metrics from now on (the app's {@code KafkaStreams#metrics}). */
  public void readFrom(final Supplier<Map<MetricName, ? extends Metric>> clientMetrics) {
    this.metrics = requireNonNull(clientMetrics, "clientMetrics");
  }

  /** Whether the task reading {@code partition} of the tokens topic was behind its end at the last read. */
  synchronized boolean behind(final int partition, final long nowMs) {
    if (lags == null || nowMs - readAtMs >= REFRESH_MS) {
      lags = read();
      readAtMs = nowMs;
    }
    final Double lag = lags.get(partition);
    return lag != null && lag > behindRecords;
  }

  private Map<Integer, Double> read() {
    final Map<Integer, Double> byPartition = new HashMap<>();
    metrics.get().forEach((name, metric) -> {
      final String partition = name.tags().get("partition");
      final String tagged = name.tags().get("topic");
      if (RECORDS_LAG.equals(name.name()) && (topicTag.equals(tagged) || topic.equals(tagged)) && partition != null
          && metric.metricValue() instanceof Double lag && !lag.isNaN()) {
        byPartition.merge(Integer.parseInt(partition), lag, Math::max);
      }
    });
    return byPartition;
  }
}
