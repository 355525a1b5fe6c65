package io.zerolayer.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class SequenceIdsTest {

  @Test
  void shouldTellWhoseRequestAnIdIsAndNoPrefixOfIt() {
    final String id = SequenceIds.prefix("acme-labs") + UUID.randomUUID();

    assertThat(SequenceIds.tenantOf(id)).contains("acme-labs");
    assertThat(SequenceIds.tenantOf(id).get()).isNotEqualTo("acme");
  }

  @Test
  void shouldSayNothingOfAnIdTheGatewayDidNotMake() {
    assertThat(SequenceIds.tenantOf("doc-42")).isEmpty();
    assertThat(SequenceIds.tenantOf("acme-not-a-uuid-but-long-enough-to-look-like-one")).isEmpty();
    assertThat(SequenceIds.tenantOf(null)).isEmpty();
  }
}
