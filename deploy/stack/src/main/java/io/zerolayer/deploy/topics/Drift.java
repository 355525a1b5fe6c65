package io.zerolayer.deploy.topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;

/** Where an existing topic differs from its spec, in words an operator can act on. */
final class Drift {

  private Drift() {
  }

  static List<String> between(final TopicSpec spec, final ObservedTopic observed) {
    final List<String> findings = new ArrayList<>();
    if (observed.partitions() != spec.partitions()) {
      findings.add(spec.name() + ": has " + observed.partitions() + " partitions, the catalogue says "
          + spec.partitions() + (observed.partitions() < spec.partitions()
              ? " (add partitions only if re-keying is acceptable: it moves keys between partitions)"
              : " (partitions cannot be removed; recreate the topic to shrink it)"));
    }
    if (observed.replicationFactor() != spec.replicationFactor()) {
      findings.add(spec.name() + ": has replication factor " + observed.replicationFactor() + ", the profile says "
          + spec.replicationFactor());
    }
    new TreeMap<>(spec.configs()).forEach((key, expected) -> {
      final String actual = observed.configs().get(key);
      if (!Objects.equals(expected, actual)) {
        findings.add(spec.name() + ": " + key + " is " + (actual == null ? "unset" : actual)
            + " on the cluster, the catalogue says " + expected);
      }
    });
    return findings;
  }
}
