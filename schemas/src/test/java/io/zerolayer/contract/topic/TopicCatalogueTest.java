package io.zerolayer.contract.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class TopicCatalogueTest {

  @Test
  void shouldPrefixEveryTopicName() {
    assertThat(new TopicCatalogue("team-a.").name(Topics.REQUESTS)).isEqualTo("team-a.inference.requests.v1");
    assertThat(TopicCatalogue.unprefixed().name(Topics.REQUESTS)).isEqualTo("inference.requests.v1");
  }

  @Test
  void shouldRefuseAPrefixKafkaWouldNot() {
    assertThatThrownBy(() -> new TopicCatalogue("a b")).hasMessageContaining("'a b'");
  }

  @Test
  void shouldCoPartitionTheTopicsKeyedBySequence() {
    assertThat(Topics.DECISIONS.partitions()).isEqualTo(Topics.TOKENS.partitions())
        .isEqualTo(Topics.REQUESTS.partitions()).isEqualTo(Topics.STALLS.partitions())
        .isEqualTo(Topics.RESPONSES.partitions());
  }

  @Test
  void shouldNameEveryTopicOnce() {
    assertThat(new HashSet<>(Topics.ALL.stream().map(Topic::baseName).toList())).hasSize(Topics.ALL.size());
  }

  @Test
  void shouldPlaceKeysWhereTheProducersDefaultPartitionerDoes() {
    for (final String key : List.of("gpu-0", "gpu-1", "seq-42", "demo-7-abcd")) {
      assertThat(Partitions.forKey(key, 6))
          .isEqualTo(BuiltInPartitioner.partitionForKey(key.getBytes(StandardCharsets.UTF_8), 6));
    }
  }
}
