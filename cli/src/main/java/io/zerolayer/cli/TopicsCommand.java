package io.zerolayer.cli;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.topics.ProvisioningException;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.ProvisioningReport;
import io.zerolayer.deploy.topics.TopicProvisioner;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code zerolayer topics}: provisions the catalogue on a cluster. */
@Command(name = "topics", mixinStandardHelpOptions = true,
    description = {"Creates the catalogue's missing topics on a cluster and reports drift; never deletes.",
        "Security settings come from KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_*, KAFKA_SSL_* (see the README)."})
final class TopicsCommand implements Callable<Integer> {

  @Option(names = "--bootstrap-servers", description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS).")
  private String bootstrapServers;

  @Option(names = "--profile", defaultValue = "production",
      description = "local (replication 1) or production (replication 3, min.insync.replicas 2). Default: ${DEFAULT-VALUE}.")
  private String profile;

  @Option(names = "--prefix", defaultValue = "", description = "Prefix of every topic name (default: none).")
  private String prefix;

  @Override
  public Integer call() {
    final Map<String, String> env = new HashMap<>(System.getenv());
    if (bootstrapServers != null) {
      env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
    }
    final Map<String, Object> props = ClusterSettings.clientPropertiesFromEnvironment(env);
    System.out.println("Provisioning the topic catalogue on " + props.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
        + " (profile " + profile + ", prefix '" + prefix + "')");
    try (Admin admin = Admin.create(props)) {
      final ProvisioningReport report = new TopicProvisioner(admin, new TopicCatalogue(prefix),
          ProvisioningProfile.parse(profile)).provision();
      report.created().forEach(name -> System.out.println("  created " + name));
      report.drift().forEach(finding -> System.out.println("  drift: " + finding));
      System.out.println(report.summary());
      return report.hasDrift() ? 2 : 0;
    } catch (final ProvisioningException | IllegalArgumentException e) {
      System.err.println("Provisioning failed: " + e.getMessage());
      return 1;
    }
  }
}
