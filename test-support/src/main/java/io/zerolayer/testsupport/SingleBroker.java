package io.zerolayer.testsupport;

import io.zerolayer.runtime.StreamsDurability;
import java.util.HashMap;
import java.util.Map;

/** Settings of a streams app on the tests' one broker: its own topics get one replica (the defaults ask for three). */
public final class SingleBroker {

  private SingleBroker() {
  }

  /** {@code settings} with the single-broker durability under the app's key {@code prefix}. */
  public static Map<String, Object> settings(final String prefix, final Map<String, ?> settings) {
    final Map<String, Object> all = new HashMap<>(settings);
    all.putAll(StreamsDurability.SINGLE_BROKER.settings(prefix));
    return all;
  }
}
