package io.zerolayer.deploy.acls;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.runtime.tenant.Tenant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least ACLs each app and each tenant needs, from the topic catalogue and the apps' default
 * application ids, groups and transactional ids (with the catalogue's prefix):
 * docs/security.md's table, as bindings. Every binding allows; nothing here denies.
 *
 * <p>The Streams apps get every right on the topics under their application id (their changelogs),
 * {@code Read} on that group and {@code Write} on transactional ids under it ({@code exactly_once_v2}).
 * A router's transactional id is {@code zerolayer-<router.id>}, covered for router ids that start
 * with the catalogue's prefix and {@code router-} (the default form). A worker's group is
 * {@code zerolayer-worker-<instance id>}.
 */
public final class AccessPlan {

  private static final String ANY_HOST = "*";

  private final TopicCatalogue catalogue;
  private final Map<App, String> principals;

  /**
   * @param principals each app's principal ({@code User:<name>}); an app left out gets no ACLs
   */
  public AccessPlan(final TopicCatalogue catalogue, final Map<App, String> principals) {
    this.catalogue = requireNonNull(catalogue, "catalogue");
    this.principals = Map.copyOf(principals);
  }

  /** Each app's default principal, {@code User:<label>}. */
  public static Map<App, String> defaultPrincipals() {
    final Map<App, String> principals = new EnumMap<>(App.class);
    for (final App app : App.values()) {
      principals.put(app, "User:" + app.label());
    }
    return principals;
  }

  /** The bindings of every app in the plan. */
  public List<AclBinding> apps() {
    final List<AclBinding> bindings = new ArrayList<>();
    principals.keySet().stream().sorted().forEach(app -> bindings.addAll(app(app, principals.get(app))));
    return bindings;
  }

  /** The bindings one app needs, for {@code principal}. */
  public List<AclBinding> app(final App app, final String principal) {
    final Grants grants = new Grants(principal);
    switch (app) {
      case HEATMAP_STREAMS -> {
        grants.read(Topics.TELEMETRY, Topics.COMPLETIONS, Topics.INSTANCE_SCORES);
        grants.write(Topics.INSTANCE_SCORES, Topics.STATUS_CHANGED, Topics.COMMANDS, Topics.TELEMETRY_DLQ);
        grants.streamsApp(PipelineNames.heatmapApplicationId(catalogue));
      }
      case TOKEN_BUFFER -> {
        grants.read(Topics.DECISIONS, Topics.TOKENS, Topics.INSTANCE_SCORES);
        grants.write(Topics.RESPONSES, Topics.STALLS, Topics.SEQUENCE_HOLDS, Topics.INFERENCE_DLQ);
        grants.streamsApp(PipelineNames.tokenBufferApplicationId(catalogue));
      }
      case ROUTER -> {
        grants.read(Topics.REQUESTS, Topics.STALLS, Topics.SEQUENCE_HOLDS, Topics.INSTANCE_SCORES, Topics.KV_EVENTS);
        grants.write(Topics.DECISIONS, Topics.DISPATCH, Topics.COMMANDS, Topics.SEQUENCE_HOLDS, Topics.TOKENS,
            Topics.INFERENCE_DLQ);
        grants.describe(Topics.RESPONSES);
        grants.allow(ResourceType.GROUP, PipelineNames.routerGroup(catalogue), PatternType.LITERAL, AclOperation.READ);
        grants.allow(ResourceType.TRANSACTIONAL_ID, "zerolayer-" + catalogue.prefix() + "router-", PatternType.PREFIXED,
            AclOperation.WRITE, AclOperation.DESCRIBE);
      }
      case WORKER -> {
        grants.read(Topics.DISPATCH, Topics.COMMANDS, Topics.TOKENS);
        grants.write(Topics.TOKENS, Topics.COMPLETIONS, Topics.STALLS, Topics.INFERENCE_DLQ);
        grants.allow(ResourceType.GROUP, "zerolayer-worker-", PatternType.PREFIXED, AclOperation.READ);
      }
      case TELEMETRY_INGEST -> grants.write(Topics.TELEMETRY, Topics.KV_EVENTS);
      case GATEWAY -> {
        grants.read(Topics.RESPONSES, Topics.TOKENS, Topics.INSTANCE_SCORES);
        grants.write(Topics.REQUESTS, Topics.COMMANDS);
      }
      default -> throw new IllegalStateException("No ACLs are planned for " + app);
    }
    return grants.bindings;
  }

  /**
   * The bindings of a tenant's own Kafka application, for {@code principal}: it writes requests and
   * reads its answers, from its reply topics when it has a prefix of its own (and then token-buffer
   * may write there and the router look them up), else from the shared response and token topics,
   * which hold every tenant's text.
   */
  public List<AclBinding> tenant(final Tenant tenant, final String principal) {
    final Grants grants = new Grants(principal);
    grants.write(Topics.REQUESTS);
    final String prefix = tenant.replyTopicPrefix();
    if (prefix == null) {
      grants.read(Topics.RESPONSES, Topics.TOKENS);
      return grants.bindings;
    }
    grants.allow(ResourceType.TOPIC, prefix, PatternType.PREFIXED, AclOperation.READ);
    final List<AclBinding> bindings = new ArrayList<>(grants.bindings);
    if (principals.containsKey(App.TOKEN_BUFFER)) {
      final Grants writer = new Grants(principals.get(App.TOKEN_BUFFER));
      writer.allow(ResourceType.TOPIC, prefix, PatternType.PREFIXED, AclOperation.WRITE);
      bindings.addAll(writer.bindings);
    }
    if (principals.containsKey(App.ROUTER)) {
      final Grants router = new Grants(principals.get(App.ROUTER));
      router.allow(ResourceType.TOPIC, prefix, PatternType.PREFIXED, AclOperation.DESCRIBE);
      bindings.addAll(router.bindings);
    }
    return bindings;
  }

  /** The bindings of one principal, built up. */
  private final class Grants {
    private final String principal;
    private final List<AclBinding> bindings = new ArrayList<>();

    Grants(final String principal) {
      this.principal = requireNonNull(principal, "principal");
      if (!principal.startsWith("User:")) {
        throw new IllegalArgumentException("A principal reads User:<name>, not '" + principal + "'");
      }
    }

    void read(final Topic<?, ?>... topics) {
      topics(AclOperation.READ, topics);
    }

    void write(final Topic<?, ?>... topics) {
      topics(AclOperation.WRITE, topics);
    }

    void describe(final Topic<?, ?>... topics) {
      topics(AclOperation.DESCRIBE, topics);
    }

    private void topics(final AclOperation operation, final Topic<?, ?>... topics) {
      for (final Topic<?, ?> topic : topics) {
        allow(ResourceType.TOPIC, catalogue.name(topic), PatternType.LITERAL, operation);
      }
    }

    void streamsApp(final String applicationId) {
      allow(ResourceType.TOPIC, applicationId, PatternType.PREFIXED, AclOperation.ALL);
      allow(ResourceType.GROUP, applicationId, PatternType.LITERAL, AclOperation.READ);
      allow(ResourceType.TRANSACTIONAL_ID, applicationId, PatternType.PREFIXED, AclOperation.WRITE,
          AclOperation.DESCRIBE);
    }

    void allow(final ResourceType type, final String name, final PatternType pattern,
        final AclOperation... operations) {
      for (final AclOperation operation : operations) {
        bindings.add(new AclBinding(new ResourcePattern(type, name, pattern),
            new AccessControlEntry(principal, ANY_HOST, operation, AclPermissionType.ALLOW)));
      }
    }
  }
}
