package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.cli.ZerolayerCli;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryClient;
import io.zerolayer.contract.serde.SchemaRegistryClients;
import io.zerolayer.contract.serde.SerdeConfig;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.acls.AccessPlan;
import io.zerolayer.deploy.acls.App;
import io.zerolayer.deploy.local.BrokerConfig;
import io.zerolayer.deploy.local.KafkaBroker;
import io.zerolayer.deploy.local.LocalCertificates;
import io.zerolayer.deploy.local.SchemaRegistryProcess;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.deploy.topics.AclProvisioner;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.SchemaProvisioner;
import io.zerolayer.deploy.topics.TopicProvisioner;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.gateway.Gateway;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import io.zerolayer.telemetry.TelemetryFields;
import io.zerolayer.telemetry.TelemetryPublisher;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.TestTenants;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The apps on a broker of their own that speaks only TLS and enforces ACLs
 * ({@link KafkaBroker#startSecured}): an SSL listener that asks for client certificates and a
 * SASL_SSL listener for SCRAM-SHA-512; and a registry of their own on https only. Every app
 * connects as a principal of its own, with its settings read from the environment as a
 * deployment sets them, and holds only the ACLs {@link AccessPlan} gives it (provisioned by
 * {@link AclProvisioner}, as {@code topics --acls} does).
 */
class KafkaSecurityIT {

  /** Quotes, a backslash and spaces: each must reach the broker as it is. */
  private static final String PASSWORD = "p\"a\\ss w0rd \"x\"";
  private static final int REQUESTS = 6;
  private static final String OAUTH_CLIENT = "oauth-telemetry-ingest";
  private static final Set<String> SCRAM_USERS = ConcurrentHashMap.newKeySet();

  @TempDir
  static Path dir;
  private static LocalCertificates certificates;
  private static OAuthServer oauth;
  private static KafkaBroker broker;
  private static SchemaRegistryProcess registry;
  private static Admin admin;

  @BeforeAll
  static void startBrokerAndRegistry() throws Exception {
    certificates = LocalCertificates.create(dir.resolve("certificates"));
    oauth = new OAuthServer(Map.of(OAUTH_CLIENT, PASSWORD), BrokerConfig.OAUTH_AUDIENCE);
    // Kafka 4's clients call only the token endpoints this JVM allows.
    System.setProperty(KafkaBroker.ALLOWED_URLS, oauth.tokenUrl());
    broker = KafkaBroker.startSecured(dir.resolve("kafka"), certificates, oauth.jwksUrl());
    registry = SchemaRegistryProcess.startTls(dir.resolve("registry"), certificates);
    admin = Admin.create(broker.adminProperties());
  }

  @AfterAll
  static void stopBrokerAndRegistry() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
    if (registry != null) {
      registry.close();
    }
    if (broker != null) {
      broker.close();
    }
    if (oauth != null) {
      oauth.close();
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldServeEndToEndOverScramWithAPrincipalPerAppAndKeepATenantOutOfAnothersReplies() throws Exception {
    // Given every app and tenant as a SCRAM user with a password that needs escaping, and the plan's ACLs
    try (Deployment deployment = new Deployment("scram-", this::scram)) {
      // When requests come through the Java client and the HTTP gateway, then each is answered in full
      deployment.answersOverKafkaAndHttp();

      // And tenant A's answer goes to its own reply topic, which it reads and tenant B may not
      final String replies = deployment.catalogue.prefix() + "replies-a-1";
      admin.createTopics(List.of(new NewTopic(replies, Topics.RESPONSES.partitions(), (short) 1))).all().get();
      final InferenceRequest request = request("a-1", "a", deployment.catalogue.prefix()).setReplyTopic(replies)
          .build();
      try (KafkaProducer<String, InferenceRequest> producer = new KafkaProducer<>(
          deployment.settings.apply("a").clientProperties(), new StringSerializer(),
          deployment.serdes.value(Topics.REQUESTS).serializer())) {
        producer.send(new ProducerRecord<>(deployment.catalogue.name(Topics.REQUESTS), request.getSequenceId(),
            request)).get(30, TimeUnit.SECONDS);
      }
      assertThat(readText(deployment, "a", replies, request.getSequenceId())).isEqualTo(ExpectedText.of(request));
      assertThat(readFails(deployment.settings.apply("b").clientProperties(), replies))
          .isInstanceOf(TopicAuthorizationException.class);
      assertThat(readFails(deployment.settings.apply("b").clientProperties(),
          deployment.catalogue.name(Topics.RESPONSES))).isInstanceOf(TopicAuthorizationException.class);
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldServeEndToEndOverMutualTlsWithAPrincipalPerApp() throws Exception {
    try (Deployment deployment = new Deployment("mtls-", this::certificate)) {
      deployment.answersOverKafkaAndHttp();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldRefusePlaintextAWrongPasswordAndAPrincipalWithoutTheAcl() throws Exception {
    final TopicCatalogue catalogue = new TopicCatalogue("refuse-");
    new TopicProvisioner(admin, catalogue, ProvisioningProfile.LOCAL).provision();
    final String user = "refuse-telemetry-ingest";
    new AclProvisioner(admin).provision(new AccessPlan(catalogue, Map.of()).app(App.TELEMETRY_INGEST, "User:" + user));

    // telemetry-ingest's own publisher, with exactly its ACL, publishes a sample
    final ClusterSettings settings = ClusterSettings.fromEnvironment(scram(user, catalogue));
    try (ContractSerdes serdes = new ContractSerdes(settings.serdes());
        TelemetryPublisher publisher = new TelemetryPublisher(settings, serdes)) {
      final InstanceTelemetry sample = TelemetryFields.neutral("gpu-7", "zone-a", GatewayClients.MODEL,
          System.currentTimeMillis()).setGpuUtilization(0.42).build();
      publisher.send(sample).get(60, TimeUnit.SECONDS);
    }
    // but may write no other topic
    assertThat(sendFails(settings.clientProperties(), catalogue.name(Topics.REQUESTS)))
        .isInstanceOf(TopicAuthorizationException.class);
    // a wrong password is refused
    final Map<String, String> wrong = new HashMap<>(scram(user, catalogue));
    wrong.put("KAFKA_SASL_PASSWORD", PASSWORD + "!");
    assertThat(sendFails(ClusterSettings.clientPropertiesFromEnvironment(wrong), catalogue.name(Topics.TELEMETRY)))
        .isInstanceOf(SaslAuthenticationException.class);
    // and a plaintext client gets nothing from either listener, nor a registry client that does not trust its authority
    try (SchemaRegistryClient untrusting = SchemaRegistryClients.create(new SerdeConfig(registry.url(), false, null))) {
      assertThat(catchThrowable(() -> untrusting.schemaById(1))).hasStackTraceContaining("SSLHandshakeException");
    }
    for (final String servers : List.of(broker.bootstrapServers(), broker.saslBootstrapServers())) {
      try (Admin plaintext = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, servers,
          AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
        assertThat(catchThrowable(() -> plaintext.listTopics().names().get(10, TimeUnit.SECONDS)))
            .as("a plaintext client of %s", servers).isNotNull();
      }
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldPublishOverOauthBearerAsTheTokensSubjectWithItsAclAlone() throws Exception {
    // Given telemetry-ingest as an OAuth client of the identity provider, its principal the token's subject
    final TopicCatalogue catalogue = new TopicCatalogue("oauth-");
    new TopicProvisioner(admin, catalogue, ProvisioningProfile.LOCAL).provision();
    new AclProvisioner(admin).provision(new AccessPlan(catalogue, Map.of()).app(App.TELEMETRY_INGEST,
        "User:" + OAUTH_CLIENT));
    final Map<String, String> env = new HashMap<>(common(catalogue));
    env.putAll(Map.of(ClusterSettings.BOOTSTRAP_SERVERS_VARIABLE, broker.saslBootstrapServers(),
        "KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_MECHANISM", "OAUTHBEARER",
        "KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL", oauth.tokenUrl(),
        "KAFKA_SASL_OAUTHBEARER_CLIENT_ID", OAUTH_CLIENT, "KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET", PASSWORD));
    final ClusterSettings settings = ClusterSettings.fromEnvironment(env);

    // When its publisher sends a sample, then the broker takes it
    try (ContractSerdes serdes = new ContractSerdes(settings.serdes());
        TelemetryPublisher publisher = new TelemetryPublisher(settings, serdes)) {
      publisher.send(TelemetryFields.neutral("gpu-9", "zone-a", GatewayClients.MODEL, System.currentTimeMillis())
          .build()).get(60, TimeUnit.SECONDS);
    }
    // and nothing else may it write
    assertThat(sendFails(settings.clientProperties(), catalogue.name(Topics.REQUESTS)))
        .isInstanceOf(TopicAuthorizationException.class);
    // and with a wrong secret it gets no token, so no connection
    env.put("KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET", PASSWORD + "!");
    assertThat(sendFails(ClusterSettings.clientPropertiesFromEnvironment(env), catalogue.name(Topics.TELEMETRY)))
        .hasStackTraceContaining("401");
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldProvisionThePlansAclsFromTheCommandLineOnceOnly() throws Exception {
    // Given the super user's client settings in a file, and a tenant file with one tenant of reply topics
    final Path config = dir.resolve("admin.properties");
    final Properties adminSettings = new Properties();
    broker.adminProperties().forEach((key, value) -> adminSettings.setProperty(key, String.valueOf(value)));
    try (Writer writer = Files.newBufferedWriter(config)) {
      adminSettings.store(writer, null);
    }
    final Path tenantFile = dir.resolve("tenants.json");
    Files.writeString(tenantFile, "{\"tenants\": [{\"id\": \"acme\", \"apiKeySha256\": \""
        + Tenant.hashKey("k") + "\", \"requestsPerSecond\": 5, \"tokensPerSecond\": 500, \"burstSeconds\": 2,"
        + " \"replyTopicPrefix\": \"cli-replies-acme-\"}]}");
    final String[] args = {"topics", "--acls", "--prefix", "cli-", "--profile", "local", "--bootstrap-servers",
        broker.bootstrapServers(), "--command-config", config.toString(), "--tenants", tenantFile.toString(),
        "--principal", "router=User:edge-router"};

    // When `zerolayer topics --acls` runs twice
    assertThat(new CommandLine(new ZerolayerCli()).execute(args)).isZero();
    final Set<AclBinding> first = Set.copyOf(admin.describeAcls(AclBindingFilter.ANY).values().get());
    assertThat(new CommandLine(new ZerolayerCli()).execute(args)).isZero();

    // Then the cluster holds every binding of the plan, and the second run added none
    final AccessPlan plan = new AccessPlan(new TopicCatalogue("cli-"), withRouter("User:edge-router"));
    assertThat(first).containsAll(plan.apps())
        .containsAll(plan.tenant(tenant("acme", "cli-replies-acme-"), "User:acme"));
    assertThat(Set.copyOf(admin.describeAcls(AclBindingFilter.ANY).values().get())).isEqualTo(first);
  }

  private static Map<App, String> withRouter(final String principal) {
    final Map<App, String> principals = AccessPlan.defaultPrincipals();
    principals.put(App.ROUTER, principal);
    return principals;
  }

  /** Environment of a SCRAM user on the SASL_SSL listener, trusting the run's authority; adds the user. */
  private Map<String, String> scram(final String user, final TopicCatalogue catalogue) {
    addScramUser(user);
    return scramEnvironment(user, catalogue);
  }

  private static Map<String, String> scramEnvironment(final String user, final TopicCatalogue catalogue) {
    final Map<String, String> env = new HashMap<>(common(catalogue));
    env.putAll(Map.of(ClusterSettings.BOOTSTRAP_SERVERS_VARIABLE, broker.saslBootstrapServers(),
        "KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_USERNAME", user, "KAFKA_SASL_PASSWORD", PASSWORD));
    return env;
  }

  /** Environment of a client that logs in with a certificate issued for {@code user}. */
  private Map<String, String> certificate(final String user, final TopicCatalogue catalogue) {
    final Map<String, String> env = new HashMap<>(common(catalogue));
    env.putAll(Map.of(ClusterSettings.BOOTSTRAP_SERVERS_VARIABLE, broker.bootstrapServers(),
        "KAFKA_SECURITY_PROTOCOL", "SSL",
        "KAFKA_SSL_KEYSTORE_LOCATION", certificates.keystore(user).toString(),
        "KAFKA_SSL_KEYSTORE_PASSWORD", certificates.password(),
        "KAFKA_SSL_KEYSTORE_TYPE", certificates.storeType(),
        "KAFKA_SSL_KEY_PASSWORD", certificates.password()));
    return env;
  }

  /** The registry over https, and the topics' prefix; every party trusts the run's authority. */
  private static Map<String, String> common(final TopicCatalogue catalogue) {
    return Map.of(ClusterSettings.REGISTRY_URL_VARIABLE, registry.url(),
        ClusterSettings.REGISTRY_TRUSTSTORE_VARIABLE, certificates.truststore().toString(),
        ClusterSettings.REGISTRY_TRUSTSTORE_PASSWORD_VARIABLE, certificates.password(),
        ClusterSettings.TOPIC_PREFIX_VARIABLE, catalogue.prefix(),
        "KAFKA_SSL_TRUSTSTORE_LOCATION", certificates.truststore().toString(),
        "KAFKA_SSL_TRUSTSTORE_PASSWORD", certificates.password(),
        "KAFKA_SSL_TRUSTSTORE_TYPE", certificates.storeType());
  }

  /**
   * Adds a SCRAM user once, and waits until it can log in: a new credential reaches the broker
   * through the metadata log, and a client that logs in before it does is refused. Adding it
   * again would change its salt under a login in progress.
   */
  private static void addScramUser(final String user) {
    if (!SCRAM_USERS.add(user)) {
      return;
    }
    try {
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
          new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), PASSWORD))).all().get(30, TimeUnit.SECONDS);
      final Map<String, Object> login = ClusterSettings.clientPropertiesFromEnvironment(
          scramEnvironment(user, new TopicCatalogue("")));
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
        try (Admin probe = Admin.create(login)) {
          return probe.describeCluster().clusterId().get(5, TimeUnit.SECONDS) != null;
        }
      });
    } catch (final Exception e) {
      throw new IllegalStateException("Cannot add SCRAM user " + user, e);
    }
  }

  /** How a principal's environment is made: its user name, the catalogue. */
  @FunctionalInterface
  private interface Login {
    Map<String, String> environment(String user, TopicCatalogue catalogue);
  }

  /**
   * One deployment on the secured broker: its topics and schemas, a principal per app (the fleet's
   * has a worker's ACLs and telemetry-ingest's), two tenants with reply topics of their own and one
   * on the shared response topics, the pipeline, a fleet and a gateway.
   */
  private static final class Deployment implements AutoCloseable {
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private final TopicCatalogue catalogue;
    private final Function<String, ClusterSettings> settings;
    private final ContractSerdes serdes;
    private final InferenceClient client;
    private final Gateway gateway;
    private final Fleet fleet;

    Deployment(final String prefix, final Login login) throws Exception {
      catalogue = new TopicCatalogue(prefix);
      new TopicProvisioner(admin, catalogue, ProvisioningProfile.LOCAL).provision();
      settings = user -> ClusterSettings.fromEnvironment(login.environment(prefix + user, catalogue));
      serdes = open(new ContractSerdes(settings.apply("registrar").serdes()));
      new SchemaProvisioner(serdes.registry(), catalogue).register();

      final Map<App, String> principals = new EnumMap<>(App.class);
      for (final App app : App.values()) {
        principals.put(app, "User:" + prefix + app.label());
      }
      final AccessPlan plan = new AccessPlan(catalogue, principals);
      final List<AclBinding> bindings = new ArrayList<>(plan.apps());
      bindings.addAll(plan.app(App.WORKER, "User:" + prefix + "fleet"));
      bindings.addAll(plan.app(App.TELEMETRY_INGEST, "User:" + prefix + "fleet"));
      final TenantDirectory tenants = TenantDirectory.of(List.of(
          tenant("a", catalogue.prefix() + "replies-a-"), tenant("b", catalogue.prefix() + "replies-b-"),
          tenant("tenant-0", null)));
      for (final String id : List.of("a", "b", "tenant-0")) {
        bindings.addAll(plan.tenant(tenants.find(id).orElseThrow(), "User:" + prefix + id));
      }
      new AclProvisioner(admin).provision(bindings);

      fleet = open(Fleet.start(settings.apply("fleet"), 2, List.of("zone-a"), GpuProfile.standard(),
          new SimpleMeterRegistry()));
      final String secret = TenantSignature.newSecret();
      final Pipeline pipeline = open(Pipeline.start(app -> settings.apply(app.label()),
          Files.createDirectories(dir.resolve("state-" + prefix)), false, tenants, new LatencyAwarePolicy(), true,
          Map.of(RouterConfig.GATEWAY_SIGNING_SECRET, secret), StreamsDurability.SINGLE_BROKER));
      Awaits.routerSees(pipeline, fleet.instanceIds());
      client = open(new InferenceClient(settings.apply("tenant-0"), serdes));
      gateway = open(Gateway.start(new GatewayConfig(Map.of(GatewayConfig.HTTP_PORT, 0, GatewayConfig.SIGNING_SECRET, secret,
          GatewayConfig.SEQUENCE_QUERY_URL, pipeline.tokenBufferUrl(),
          GatewayConfig.SEQUENCE_QUERY_TOKEN, pipeline.sequenceQueryToken())), tenants, settings.apply("gateway"),
          serdes));
    }

    /** Requests through the Java client and through the gateway with langchain4j are answered in full. */
    void answersOverKafkaAndHttp() throws Exception {
      final List<InferenceRequest> requests = new ArrayList<>();
      final List<CompletableFuture<Response>> answers = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        final InferenceRequest request = request("k-" + i, "tenant-0", catalogue.prefix()).build();
        requests.add(request);
        answers.add(client.submit(request));
      }
      for (int i = 0; i < REQUESTS; i++) {
        final Response response = answers.get(i).get(2, TimeUnit.MINUTES);
        assertThat(response.text()).isEqualTo(ExpectedText.of(requests.get(i)));
        assertThat(response.outcome()).isIn(RoutingOutcome.DIRECT, RoutingOutcome.CUTOVER);
        assertThat(fleet.instanceIds()).contains(response.last().getInstanceId());
      }
      final String answer = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + gateway.port() + "/v1")
          .apiKey(TestTenants.key("tenant-0")).modelName(GatewayClients.MODEL).maxTokens(16).seed(3).maxRetries(0)
          .timeout(Duration.ofSeconds(60)).build()
          .chat(ChatRequest.builder().messages(UserMessage.from("Who may read this?")).build()).aiMessage().text();
      assertThat(answer).isEqualTo(ExpectedText.ofChat(3, 16, "user", "Who may read this?"));
    }

    private <T extends AutoCloseable> T open(final T piece) {
      opened.push(piece);
      return piece;
    }

    @Override
    public void close() throws Exception {
      while (!opened.isEmpty()) {
        opened.pop().close();
      }
    }
  }

  private static Tenant tenant(final String id, final String replyTopicPrefix) {
    return new Tenant(id, Tenant.hashKey(TestTenants.key(id)), 100_000, 100_000_000, 10, replyTopicPrefix);
  }

  private static InferenceRequest.Builder request(final String name, final String tenant, final String prefix) {
    return InferenceRequest.newBuilder()
        .setSequenceId(prefix + name)
        .setTenantId(tenant)
        .setApiKey(TestTenants.key(tenant))
        .setPrompt("Secured request " + name + ": who may read my answer?")
        .setMaxOutputTokens(20)
        .setSeed(name.hashCode())
        .setSubmittedAtMs(System.currentTimeMillis());
  }

  /** The text of a sequence's durable stream on a reply topic, read as {@code user} up to its last chunk. */
  private static String readText(final Deployment deployment, final String user, final String topic,
      final String sequenceId) {
    final Map<String, Object> props = new HashMap<>(deployment.settings.apply(user).clientProperties());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<String, ResponseChunk> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        deployment.serdes.value(Topics.RESPONSES).deserializer())) {
      consumer.assign(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList());
      final StringBuilder text = new StringBuilder();
      final long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (System.nanoTime() < until) {
        for (final ConsumerRecord<String, ResponseChunk> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.key().equals(sequenceId)) {
            record.value().getTokens().forEach(text::append);
            if (record.value().getLast()) {
              return text.toString();
            }
          }
        }
      }
      throw new AssertionError("No last chunk of " + sequenceId + " on " + topic + " within 90 s; read: " + text);
    } catch (final InterruptedException | ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What reading {@code topic} with these client settings failed with, or null. */
  private static Throwable readFails(final Map<String, Object> client, final String topic) {
    final Map<String, Object> props = new HashMap<>(client);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      consumer.assign(List.of(new TopicPartition(topic, 0)));
      return catchThrowable(() -> {
        final long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < until) {
          assertThat(consumer.poll(Duration.ofMillis(500))).as("records read from %s", topic).isEmpty();
        }
      });
    }
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
    } catch (final KafkaException e) {
      // The producer could not even start: its login failed.
      return e;
    }
  }
}
