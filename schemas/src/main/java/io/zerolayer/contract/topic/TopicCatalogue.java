package io.zerolayer.contract.topic;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The catalogue as deployed: {@link Topics} with a deployment prefix, so that several
 * deployments (or tests) can share one cluster. The empty prefix gives the names as catalogued.
 */
public final class TopicCatalogue {

  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]*");

  private final String prefix;

  /**
   * @param prefix prepended to every base name; letters, digits, '.', '_' and '-' only
   */
  public TopicCatalogue(final String prefix) {
    requireNonNull(prefix, "prefix");
    if (!LEGAL.matcher(prefix).matches()) {
      throw new IllegalArgumentException("Topic prefix '" + prefix
          + "' may only hold letters, digits, '.', '_' and '-'");
    }
    this.prefix = prefix;
  }

  /** The catalogue with the names as catalogued. */
  public static TopicCatalogue unprefixed() {
    return new TopicCatalogue("");
  }

  /** The physical name of a topic in this deployment. */
  public String name(final Topic<?, ?> topic) {
    return prefix + topic.baseName();
  }

  /** The deployment prefix, empty by default. */
  public String prefix() {
    return prefix;
  }

  /** Every topic of the catalogue. */
  public List<Topic<?, ?>> all() {
    return Topics.ALL;
  }
}
