package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.SequenceHold;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class HoldsFeedTest {

  private static final TopicCatalogue CATALOGUE = TopicCatalogue.unprefixed();
  private static final TopicPartition HOLDS = new TopicPartition(CATALOGUE.name(Topics.SEQUENCE_HOLDS), 1);
  private static final TopicPartition REQUESTS = new TopicPartition(CATALOGUE.name(Topics.REQUESTS), 1);

  private final ContractSerdes serdes = ContractSerdes.inMemory();
  private final SequenceHolds holds = new SequenceHolds();
  private final HoldsFeed feed = new HoldsFeed(new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name()), holds,
      CATALOGUE, serdes, new RouterMeters(new SimpleMeterRegistry()));

  @Test
  void shouldApplyAPollsHoldsAndLeaveOnlyItsRequestsForTheTransaction() {
    final ConsumerRecord<byte[], byte[]> request = new ConsumerRecord<>(REQUESTS.topic(), 1, 7, key("s-2"),
        new byte[] {1});
    final ConsumerRecords<byte[], byte[]> polled = new ConsumerRecords<>(Map.of(
        HOLDS, List.of(hold(3, "s-1", 1, 5), new ConsumerRecord<>(HOLDS.topic(), 1, 4, key("s-0"), null)),
        REQUESTS, List.of(request)), Map.of());

    final ConsumerRecords<byte[], byte[]> left = feed.applyHolds(polled);

    assertThat(left.count()).isEqualTo(1);
    assertThat(left.records(REQUESTS)).containsExactly(request);
    assertThat(holds.heldByAnother("s-1", 1, 6)).isTrue();
    assertThat(holds.size()).isEqualTo(1);
  }

  @Test
  void shouldLeaveAHoldItCannotReadForTheTransactionsDeadLetter() {
    final ConsumerRecord<byte[], byte[]> unreadable = new ConsumerRecord<>(HOLDS.topic(), 1, 9, key("s-3"),
        new byte[] {0, 0, 0, 0, 42, 1});
    final ConsumerRecord<byte[], byte[]> keyless = new ConsumerRecord<>(HOLDS.topic(), 1, 10, null, null);

    final ConsumerRecords<byte[], byte[]> left = feed.applyHolds(
        new ConsumerRecords<>(Map.of(HOLDS, List.of(unreadable, keyless)), Map.of()));

    assertThat(left.records(HOLDS)).containsExactly(unreadable, keyless);
    assertThat(holds.size()).isZero();
  }

  private ConsumerRecord<byte[], byte[]> hold(final long offset, final String sequenceId, final int partition,
      final long requestOffset) {
    final SequenceHold hold = SequenceHold.newBuilder().setSequenceId(sequenceId).setTenantId("t")
        .setRequestPartition(partition).setRequestOffset(requestOffset).setHeldAtMs(1).build();
    return new ConsumerRecord<>(HOLDS.topic(), 1, offset, key(sequenceId),
        serdes.value(Topics.SEQUENCE_HOLDS).serializer().serialize(HOLDS.topic(), hold));
  }

  private static byte[] key(final String sequenceId) {
    return sequenceId.getBytes(StandardCharsets.UTF_8);
  }
}
