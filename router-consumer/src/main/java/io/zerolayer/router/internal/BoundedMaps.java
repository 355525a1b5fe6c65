package io.zerolayer.router.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** Maps that keep the entries put last and drop the oldest beyond a capacity. */
final class BoundedMaps {

  private BoundedMaps() {
  }

  /** An insertion-ordered map that drops its oldest entry once it holds more than {@code capacity}. */
  static <K, V> Map<K, V> keepingNewest(final int capacity) {
    return new LinkedHashMap<>(16, 0.75f, false) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(final Map.Entry<K, V> eldest) {
        return size() > capacity;
      }
    };
  }
}
