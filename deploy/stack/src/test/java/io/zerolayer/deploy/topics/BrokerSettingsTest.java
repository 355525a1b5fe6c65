package io.zerolayer.deploy.topics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerSettingsTest {

  private static final Map<String, String> KAFKA_DEFAULTS = Map.of(
      BrokerSettings.TXN_RETRY_BACKOFF, "20", BrokerSettings.TXN_RETRY_BACKOFF_MAX, "100",
      BrokerSettings.TXN_LOG_REPLICATION, "3", BrokerSettings.TXN_LOG_MIN_ISR, "2");
  private static final Map<String, String> ADVISED = Map.of(
      BrokerSettings.TXN_RETRY_BACKOFF, "5", BrokerSettings.TXN_RETRY_BACKOFF_MAX, "5000",
      BrokerSettings.TXN_LOG_REPLICATION, "3", BrokerSettings.TXN_LOG_MIN_ISR, "2");

  @Test
  void shouldAdviseTheRetryBackoffOfEachBrokerLeftAtKafkasDefaultUnderTransactionVersion2() {
    assertThat(BrokerSettings.advice(Map.of(1, KAFKA_DEFAULTS, 2, ADVISED, 3, KAFKA_DEFAULTS), (short) 2,
        ProvisioningProfile.PRODUCTION))
        .hasSize(2)
        .allSatisfy(finding -> assertThat(finding).contains("add.partitions.to.txn.retry.backoff.max.ms is 100 (and"
            + " add.partitions.to.txn.retry.backoff.ms 20) under transaction version 2"))
        .anySatisfy(finding -> assertThat(finding).startsWith("broker 1: "))
        .anySatisfy(finding -> assertThat(finding).startsWith("broker 3: "));
  }

  @Test
  void shouldLeaveTheRetryBackoffAloneUnderTransactionVersion1WhereProducersAddPartitionsThemselves() {
    assertThat(BrokerSettings.advice(Map.of(1, KAFKA_DEFAULTS), (short) 1, ProvisioningProfile.PRODUCTION)).isEmpty();
  }

  @Test
  void shouldFindNothingOnBrokersSetAsAdvised() {
    assertThat(BrokerSettings.advice(Map.of(1, ADVISED, 2, ADVISED, 3, ADVISED), (short) 2,
        ProvisioningProfile.PRODUCTION)).isEmpty();
  }

  @Test
  void shouldAdviseATransactionLogReplicatedLessThanTheProfileWants() {
    final Map<String, String> single = Map.of(BrokerSettings.TXN_RETRY_BACKOFF_MAX, "5000",
        BrokerSettings.TXN_LOG_REPLICATION, "1", BrokerSettings.TXN_LOG_MIN_ISR, "1");

    assertThat(BrokerSettings.advice(Map.of(1, single), (short) 2, ProvisioningProfile.LOCAL)).isEmpty();
    assertThat(BrokerSettings.advice(Map.of(1, single), (short) 2, ProvisioningProfile.PRODUCTION))
        .containsExactly("broker 1: transaction.state.log.replication.factor 1 and transaction.state.log.min.isr 1"
            + " are below the production profile's 3 and 2: the loss of a broker can lose the state of the apps'"
            + " transactions; raise them (an existing __transaction_state keeps its replicas until they are"
            + " reassigned)");
  }
}
