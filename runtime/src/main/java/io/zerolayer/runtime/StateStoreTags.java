package io.zerolayer.runtime;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives every Kafka Streams state-store meter the same tag keys. Kafka names a store's id tag
 * after its type ({@code rocksdb-state-id}, {@code rocksdb-window-state-id}, ...), and Prometheus
 * takes only one set of tag keys per meter name: the first store type to register a name would
 * keep it, and the meters of every other type would be dropped. Here the id becomes
 * {@code state.id} and the type {@code store.type} ({@code rocksdb-window}, ...).
 */
final class StateStoreTags implements MeterFilter {

  private static final String STATE_METERS = "kafka.stream.state";
  private static final String ID_SUFFIX = "-state-id";

  @Override
  public Meter.Id map(final Meter.Id id) {
    if (!id.getName().startsWith(STATE_METERS)) {
      return id;
    }
    final List<Tag> tags = new ArrayList<>();
    boolean renamed = false;
    for (final Tag tag : id.getTagsAsIterable()) {
      final String key = tag.getKey().replace('.', '-');
      if (!renamed && key.endsWith(ID_SUFFIX)) {
        tags.add(Tag.of("store.type", key.substring(0, key.length() - ID_SUFFIX.length())));
        tags.add(Tag.of("state.id", tag.getValue()));
        renamed = true;
      } else {
        tags.add(tag);
      }
    }
    return renamed ? id.replaceTags(tags) : id;
  }
}
