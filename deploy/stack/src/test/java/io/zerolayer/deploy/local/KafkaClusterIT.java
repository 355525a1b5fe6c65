package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Three nodes: topics replicated three times, writes that survive a node's kill, and a node that comes back with its data. */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaClusterIT {

  private static final String TOPIC = "kept";

  @TempDir
  Path workDir;

  @Test
  void shouldKeepEveryRecordAcrossAKilledLeaderAndTakeItBackWithItsData() throws Exception {
    try (KafkaCluster cluster = KafkaCluster.start(workDir, 3);
        Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
        KafkaProducer<String, String> producer = producer(cluster)) {
      assertThat(admin.describeCluster().nodes().get()).extracting(Node::id).containsExactlyInAnyOrder(1, 2, 3);
      admin.createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), Optional.empty()))).all().get();
      // The nodes learn of a new topic a moment after it is created; until then one may answer that it
      // does not host it.
      final TopicDescription created = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() ->
          admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC),
          topic -> topic.partitions().get(0).leader() != null);
      assertThat(created.partitions().get(0).replicas()).hasSize(3);
      final var configs = await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> admin
          .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, TOPIC))).all().get().values()
          .iterator().next(), Objects::nonNull);
      assertThat(configs.get("min.insync.replicas").value()).isEqualTo("2");
      send(producer, 0, 100);

      final int leader = created.partitions().get(0).leader().id();
      final long pid = cluster.pid(leader);
      cluster.kill(leader);
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(cluster.isRunning(leader)).isFalse();
      send(producer, 100, 200);
      await().atMost(Duration.ofSeconds(30)).until(() -> partition(admin).leader() != null
          && partition(admin).leader().id() != leader);

      cluster.restart(leader);
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(() -> partition(admin).isr().size() == 3);
      send(producer, 200, 300);
      // The restarted node, the preferred leader, leads again, so what is read comes from its own log.
      assertThat(created.partitions().get(0).replicas().get(0).id()).isEqualTo(leader);
      admin.electLeaders(ElectionType.PREFERRED, Set.of(new TopicPartition(TOPIC, 0))).all().get();
      await().atMost(Duration.ofSeconds(30)).until(() -> partition(admin).leader().id() == leader);
      cluster.kill(cluster.nodeIds().stream().filter(id -> id != leader).findFirst().orElseThrow());

      assertThat(readAll(cluster)).isEqualTo(IntStream.range(0, 300).mapToObj(Integer::toString).toList());
    }
  }

  private static TopicPartitionInfo partition(final Admin admin) throws Exception {
    return admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).partitions().get(0);
  }

  private static KafkaProducer<String, String> producer(final KafkaCluster cluster) {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000),
        new StringSerializer(), new StringSerializer());
  }

  private static void send(final KafkaProducer<String, String> producer, final int from, final int to) {
    for (int i = from; i < to; i++) {
      producer.send(new ProducerRecord<>(TOPIC, "k", Integer.toString(i)));
    }
    producer.flush();
  }

  private static List<String> readAll(final KafkaCluster cluster) {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer())) {
      final TopicPartition partition = new TopicPartition(TOPIC, 0);
      consumer.assign(List.of(partition));
      final List<String> values = new ArrayList<>();
      final long deadline = System.currentTimeMillis() + 30_000;
      while (values.size() < 300 && System.currentTimeMillis() < deadline) {
        for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          values.add(record.value());
        }
      }
      return values;
    }
  }
}
