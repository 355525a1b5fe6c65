package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.topic.TopicCatalogue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Makes a cluster hold every topic of the catalogue. It creates the missing ones, never deletes or
 * alters a topic, and reports where existing topics drift from the catalogue. Running it again
 * changes nothing. It returns once every partition of the catalogue serves requests.
 */
public final class TopicProvisioner {

  /** How long it waits for one admin request and for new partitions to get leaders. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final Admin admin;
  private final TopicCatalogue catalogue;
  private final ProvisioningProfile profile;
  private final Duration timeout;

  public TopicProvisioner(final Admin admin, final TopicCatalogue catalogue, final ProvisioningProfile profile) {
    this(admin, catalogue, profile, DEFAULT_TIMEOUT);
  }

  public TopicProvisioner(final Admin admin, final TopicCatalogue catalogue, final ProvisioningProfile profile,
      final Duration timeout) {
    this.admin = requireNonNull(admin, "admin");
    this.catalogue = requireNonNull(catalogue, "catalogue");
    this.profile = requireNonNull(profile, "profile");
    this.timeout = requireNonNull(timeout, "timeout");
  }

  /**
   * Creates the missing topics, checks the existing ones and waits for every partition.
   *
   * @throws ProvisioningException if the cluster refuses or does not answer in time
   */
  public ProvisioningReport provision() {
    final List<TopicSpec> specs = catalogue.all().stream()
        .map(topic -> TopicSpec.of(topic, catalogue, profile))
        .toList();
    final Set<String> existing = AdminCalls.await(admin.listTopics().names(), timeout, "list topics");
    final List<String> created = create(specs.stream().filter(spec -> !existing.contains(spec.name())).toList());
    final List<TopicSpec> present = specs.stream().filter(spec -> !created.contains(spec.name())).toList();
    final Map<String, ObservedTopic> observed = new TopicObserver(admin, timeout)
        .describe(present.stream().map(TopicSpec::name).toList());
    final List<String> unchanged = new ArrayList<>();
    final List<String> drift = new ArrayList<>();
    for (final TopicSpec spec : present) {
      final List<String> findings = Drift.between(spec, observed.get(spec.name()));
      if (findings.isEmpty()) {
        unchanged.add(spec.name());
      }
      drift.addAll(findings);
    }
    new PartitionReadiness(admin, timeout).await(specs.stream().map(TopicSpec::name).toList());
    return new ProvisioningReport(created, unchanged, drift);
  }

  /** Creates the topics; returns those it created (another client may create one at the same time). */
  private List<String> create(final List<TopicSpec> missing) {
    if (missing.isEmpty()) {
      return List.of();
    }
    final Map<String, KafkaFuture<Void>> results = admin.createTopics(
        missing.stream().map(TopicSpec::toNewTopic).toList()).values();
    final List<String> created = new ArrayList<>();
    for (final TopicSpec spec : missing) {
      try {
        AdminCalls.await(results.get(spec.name()), timeout, "create topic " + spec.name());
        created.add(spec.name());
      } catch (final ProvisioningException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
    }
    return created;
  }
}
