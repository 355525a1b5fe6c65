package io.zerolayer.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class PartitionShareTest {

  @Test
  void shouldDealEveryPartitionToExactlyOneOfTheShares() {
    final PartitionShare[] shares = {new PartitionShare(0, 3), new PartitionShare(1, 3), new PartitionShare(2, 3)};

    assertThat(IntStream.range(0, 12)).allSatisfy(partition -> assertThat(
        IntStream.range(0, shares.length).filter(i -> shares[i].holds(partition)).count()).isEqualTo(1));
    assertThat(PartitionShare.all().holds(11)).isTrue();
  }

  @Test
  void shouldPutAKeyOnThePartitionKafkasProducersPutIt() {
    assertThat(IntStream.range(0, 200).mapToObj(i -> "tenant-" + i)).allSatisfy(key -> assertThat(
        PartitionShare.partitionOf(key, 12)).isEqualTo(BuiltInPartitioner.partitionForKey(key.getBytes(
            java.nio.charset.StandardCharsets.UTF_8), 12)));
  }

  @Test
  void shouldRefuseAnIndexOutsideItsCount() {
    assertThatThrownBy(() -> new PartitionShare(2, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("index 2 of 2");
  }
}
