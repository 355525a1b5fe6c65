package io.zerolayer.cli;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.acls.AccessPlan;
import io.zerolayer.deploy.acls.App;
import io.zerolayer.deploy.strimzi.StrimziResources;
import io.zerolayer.deploy.topics.AclProvisioner;
import io.zerolayer.deploy.topics.BrokerSettings;
import io.zerolayer.deploy.topics.ProvisioningException;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.ProvisioningReport;
import io.zerolayer.deploy.topics.TopicProvisioner;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.resource.PatternType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code zerolayer topics}: provisions the catalogue, and with {@code --acls} its ACLs, on a cluster. */
@Command(name = "topics", mixinStandardHelpOptions = true,
    description = {"Creates the catalogue's missing topics on a cluster and reports drift, and the broker settings the"
        + " apps' transactions need that differ; with --acls, also the least ACLs each app and each tenant of --tenants"
        + " needs. Never deletes a topic or an ACL, never changes a broker's settings.",
        "Security settings come from KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_*, KAFKA_SSL_* (see docs/operations.md),"
            + " or from --command-config."})
final class TopicsCommand implements Callable<Integer> {

  @Option(names = "--bootstrap-servers", description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS).")
  private String bootstrapServers;

  @Option(names = "--command-config", paramLabel = "FILE",
      description = "Kafka client properties (security.protocol, sasl.*, ssl.*) over those of the environment.")
  private Path commandConfig;

  @Option(names = "--profile", defaultValue = "production",
      description = "local (replication 1) or production (replication 3, min.insync.replicas 2). Default: ${DEFAULT-VALUE}.")
  private String profile;

  @Option(names = "--prefix", defaultValue = "", description = "Prefix of every topic name (default: none).")
  private String prefix;

  @Option(names = "--acls", description = "Also create the ACLs of every app (and of every tenant of --tenants).")
  private boolean acls;

  @Option(names = "--principal", paramLabel = "APP=User:NAME",
      description = "An app's principal, when not User:<app> (apps: heatmap-streams, token-buffer, router, worker,"
          + " telemetry-ingest, gateway). Repeatable.")
  private Map<String, String> principals = new HashMap<>();

  @Option(names = "--tenants", paramLabel = "FILE",
      description = "The tenant file; with --acls, each tenant's Kafka application gets its ACLs as User:<tenant id>.")
  private Path tenants;

  @Option(names = "--strimzi", paramLabel = "FILE",
      description = "Write the topics and each app's KafkaUser with its least ACLs as Strimzi resources to FILE"
          + " (- for standard output), for a Strimzi operator to create, instead of creating them on a cluster.")
  private Path strimzi;

  @Option(names = "--kafka-cluster", defaultValue = "zerolayer",
      description = "With --strimzi: the name of the Kafka resource they belong to. Default: ${DEFAULT-VALUE}.")
  private String kafkaCluster;

  @Override
  public Integer call() {
    if (strimzi != null) {
      return writeStrimzi();
    }
    final Map<String, String> env = new HashMap<>(System.getenv());
    if (bootstrapServers != null) {
      env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
    }
    try {
      final Map<String, Object> props = ClusterSettings.clientPropertiesFromEnvironment(env);
      if (commandConfig != null) {
        props.putAll(commandConfig(commandConfig));
      }
      final TopicCatalogue catalogue = new TopicCatalogue(prefix);
      final List<AclBinding> wanted = acls ? plannedAcls(catalogue) : List.of();
      System.out.println("Provisioning the topic catalogue on " + props.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
          + " (profile " + profile + ", prefix '" + prefix + "')");
      try (Admin admin = Admin.create(props)) {
        final ProvisioningProfile durability = ProvisioningProfile.parse(profile);
        final ProvisioningReport report = new TopicProvisioner(admin, catalogue, durability).provision();
        report.created().forEach(name -> System.out.println("  created " + name));
        report.drift().forEach(finding -> System.out.println("  drift: " + finding));
        System.out.println(report.summary());
        final List<String> advice = new BrokerSettings(admin, TopicProvisioner.DEFAULT_TIMEOUT)
            .advice(durability);
        advice.forEach(finding -> System.out.println("  broker settings: " + finding));
        System.out.println("Broker settings: " + (advice.isEmpty() ? "as the apps need them"
            : advice.size() + " to change (provisioning does not change them)"));
        if (acls) {
          final List<AclBinding> created = new AclProvisioner(admin).provision(wanted);
          created.forEach(binding -> System.out.println("  allowed " + describe(binding)));
          System.out.println("ACLs: " + created.size() + " created, " + (wanted.size() - created.size())
              + " already there");
        }
        return report.hasDrift() ? 2 : 0;
      }
    } catch (final ProvisioningException | IllegalArgumentException | UncheckedIOException e) {
      System.err.println("Provisioning failed: " + e.getMessage());
      return 1;
    }
  }

  private int writeStrimzi() {
    try {
      final String yaml = new StrimziResources(new TopicCatalogue(prefix), ProvisioningProfile.parse(profile),
          kafkaCluster).yaml();
      if (strimzi.toString().equals("-")) {
        System.out.print(yaml);
      } else {
        Files.writeString(strimzi, yaml);
        System.out.println("Wrote " + Topics.ALL.size() + " KafkaTopics and " + App.values().length
            + " KafkaUsers (profile " + profile + ", Kafka cluster '" + kafkaCluster + "') to " + strimzi);
      }
      return 0;
    } catch (final IOException | IllegalArgumentException e) {
      System.err.println("Cannot write the Strimzi resources to " + strimzi + ": " + e.getMessage());
      return 1;
    }
  }

  private List<AclBinding> plannedAcls(final TopicCatalogue catalogue) {
    final Map<App, String> byApp = AccessPlan.defaultPrincipals();
    principals.forEach((app, principal) -> byApp.put(App.of(app), principal));
    final AccessPlan plan = new AccessPlan(catalogue, byApp);
    final List<AclBinding> wanted = new ArrayList<>(plan.apps());
    if (tenants != null) {
      TenantDirectory.fromFile(tenants).all().forEach(tenant -> wanted.addAll(plan.tenant(tenant,
          "User:" + tenant.id())));
    }
    return wanted;
  }

  private static Map<String, String> commandConfig(final Path file) {
    final Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot read --command-config " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
    final Map<String, String> props = new HashMap<>();
    properties.stringPropertyNames().forEach(name -> props.put(name, properties.getProperty(name)));
    return props;
  }

  private static String describe(final AclBinding binding) {
    return binding.entry().principal() + " " + binding.entry().operation() + " on "
        + binding.pattern().resourceType() + " " + binding.pattern().name()
        + (binding.pattern().patternType() == PatternType.PREFIXED ? "*" : "");
  }
}
