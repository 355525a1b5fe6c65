package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.local.KafkaBroker;
import io.zerolayer.telemetry.TelemetryFields;
import io.zerolayer.telemetry.TelemetryPublisher;
import io.zerolayer.testsupport.TestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app's Kafka security settings against a real broker that enforces them: a broker of its own
 * with a SASL_PLAINTEXT listener (SCRAM-SHA-512, the apps' default mechanism) and Kafka's ACL
 * authorizer. telemetry-ingest's principal, with exactly the ACL the security guide gives it,
 * publishes a sample through the app's own settings, read from the environment as a deployment
 * sets them, with a password that needs escaping in the JAAS line; it may write nothing else,
 * and a wrong password is refused.
 */
@ExtendWith(TestCluster.class)
class KafkaSecurityIT {

  private static final String PRINCIPAL = "telemetry-ingest";
  /** Quotes, a backslash and spaces: each must reach the broker as it is. */
  private static final String PASSWORD = "p\"a\\ss w0rd \"x\"";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldPublishOverScramWithTheGuidesAclAndNothingMore(final TestCluster.Handle cluster,
      @TempDir final Path dir) throws Exception {
    try (KafkaBroker broker = KafkaBroker.startWithSasl(dir);
        Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      // Given the topics, the principal's SCRAM credential and its ACL, made over the super user's listener
      final TopicCatalogue catalogue = new TopicCatalogue("sec-");
      final String telemetry = catalogue.name(Topics.TELEMETRY);
      final String requests = catalogue.name(Topics.REQUESTS);
      admin.createTopics(List.of(new NewTopic(telemetry, 1, (short) 1), new NewTopic(requests, 1, (short) 1)))
          .all().get();
      for (final String topic : List.of(telemetry, requests)) {
        admin.listOffsets(Map.of(new TopicPartition(topic, 0), OffsetSpec.latest())).all().get();
      }
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(PRINCIPAL,
          new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), PASSWORD))).all().get();
      admin.createAcls(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, telemetry, PatternType.LITERAL),
          new AccessControlEntry("User:" + PRINCIPAL, "*", AclOperation.WRITE, AclPermissionType.ALLOW)))).all().get();

      // When telemetry-ingest's publisher runs with the settings a deployment gives it
      final Map<String, String> env = environment(broker, cluster.registryUrl(), PASSWORD);
      final ClusterSettings settings = ClusterSettings.fromEnvironment(env);
      final InstanceTelemetry sample = TelemetryFields.neutral("gpu-7", "zone-a", "sim-8b",
          System.currentTimeMillis()).setGpuUtilization(0.42).build();
      try (ContractSerdes serdes = new ContractSerdes(settings.serdes());
          TelemetryPublisher publisher = new TelemetryPublisher(settings, serdes)) {
        publisher.send(sample).get(60, TimeUnit.SECONDS);
      }

      // Then the sample is on the telemetry topic
      assertThat(readOne(broker, telemetry)).isNotNull();

      // and the same principal may write no other topic
      assertThat(sendFails(ClusterSettings.clientPropertiesFromEnvironment(env), requests))
          .isInstanceOf(TopicAuthorizationException.class);

      // and a wrong password is refused
      assertThat(sendFails(ClusterSettings.clientPropertiesFromEnvironment(
          environment(broker, cluster.registryUrl(), PASSWORD + "!")), telemetry))
          .isInstanceOf(SaslAuthenticationException.class);
    }
  }

  private static Map<String, String> environment(final KafkaBroker broker, final String registryUrl,
      final String password) {
    return Map.of(ClusterSettings.BOOTSTRAP_SERVERS_VARIABLE, broker.saslBootstrapServers(),
        ClusterSettings.REGISTRY_URL_VARIABLE, registryUrl, ClusterSettings.TOPIC_PREFIX_VARIABLE, "sec-",
        "KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT", "KAFKA_SASL_USERNAME", PRINCIPAL,
        "KAFKA_SASL_PASSWORD", password);
  }

  /** What sending one record to {@code topic} with these client settings failed with, or null. */
  private static Throwable sendFails(final Map<String, Object> client, final String topic) {
    final Map<String, Object> props = new HashMap<>(client);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
        new ByteArraySerializer())) {
      final Throwable thrown = catchThrowable(() -> producer.send(new ProducerRecord<>(topic, new byte[] {1}))
          .get(30, TimeUnit.SECONDS));
      return thrown instanceof ExecutionException ? thrown.getCause() : thrown;
    }
  }

  /** The first record of the topic, read over the super user's listener; null when none came. */
  private static byte[] readOne(final KafkaBroker broker, final String topic) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      consumer.assign(List.of(new TopicPartition(topic, 0)));
      final long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < until) {
        final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
        if (!records.isEmpty()) {
          return records.iterator().next().value();
        }
      }
      return null;
    }
  }
}
