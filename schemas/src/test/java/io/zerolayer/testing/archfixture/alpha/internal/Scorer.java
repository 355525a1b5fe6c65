package io.zerolayer.testing.archfixture.alpha.internal;

import org.apache.kafka.common.TopicPartition;

/** Decision logic that breaks the rule: it takes a Kafka type, for ArchitectureRulesTest. */
public final class Scorer {

  public static int score(final TopicPartition partition) {
    return partition.partition();
  }
}
