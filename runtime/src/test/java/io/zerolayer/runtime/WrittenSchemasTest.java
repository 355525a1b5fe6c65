package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.TokenRun;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SerdeConfig;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

class WrittenSchemasTest {

  @Test
  void shouldRegisterTheValueSchemaOfEveryChangelogUnderItsSubject() {
    try (ContractSerdes serdes = ContractSerdes.inMemory()) {
      WrittenSchemas.ofChangelogs(serdes, "zerolayer-token-buffer",
          Map.of("sequence-store", SequenceState.class, "token-store", TokenRun.class));

      assertThat(serdes.registry().idOf("zerolayer-token-buffer-token-store-changelog-value",
          SpecificData.get().getSchema(TokenRun.class))).isNotNegative();
      assertThat(serdes.registry().idOf("zerolayer-token-buffer-sequence-store-changelog-value",
          SpecificData.get().getSchema(SequenceState.class))).isNotNegative();
    }
  }

  @Test
  void shouldRegisterTheValueSchemaOfEveryTopicWrittenUnderItsSubject() {
    try (ContractSerdes serdes = ContractSerdes.inMemory()) {
      WrittenSchemas.ofTopics(serdes, TopicCatalogue.unprefixed(), List.of(Topics.DECISIONS, Topics.TOKENS));

      assertThat(serdes.registry().idOf("routing.decisions.v1-value",
          SpecificData.get().getSchema(RoutingDecision.class))).isNotNegative();
      assertThat(serdes.registry().idOf("inference.tokens.v1-value",
          SpecificData.get().getSchema(io.zerolayer.contract.avro.TokenChunk.class))).isNotNegative();
    }
  }

  @Test
  void shouldLeaveTheFirstWriteToAskWhenTheRegistryCannotAnswer() {
    try (ContractSerdes serdes = new ContractSerdes(new SerdeConfig("http://127.0.0.1:1", true, null),
        Duration.ofMillis(500))) {
      assertThatCode(() -> WrittenSchemas.ofChangelogs(serdes, "app", Map.of("token-store", TokenRun.class)))
          .doesNotThrowAnyException();
    }
  }
}
