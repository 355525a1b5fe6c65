package io.zerolayer.router;

import io.zerolayer.router.policy.RoutingPolicies;
import io.zerolayer.router.policy.ServiceObjective;
import io.zerolayer.runtime.EnvironmentConfig;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** Router settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class RouterConfig extends AbstractConfig {

  public static final String ROUTER_ID = "router.id";
  public static final String GROUP_ID = "router.group.id";
  public static final String MAX_OUTPUT_TOKENS = "router.max.output.tokens";
  public static final String MAX_PROMPT_CHARS = "router.max.prompt.chars";
  public static final String DEFAULT_RETRY_AFTER_MS = "router.default.retry.after.ms";
  public static final String MAX_ATTEMPTS = "router.max.attempts";
  public static final String MAX_QUEUE_WAIT_MS = "router.max.queue.wait.ms";
  public static final String STALL_HOLD_MS = "router.stall.hold.ms";
  public static final String HTTP_HOST = "router.http.host";
  public static final String HTTP_PORT = "router.http.port";
  public static final String TENANTS_FILE = "router.tenants.file";
  public static final String SESSION_TIMEOUT_MS = "router.session.timeout.ms";
  public static final String TRANSACTION_TIMEOUT_MS = "router.transaction.timeout.ms";
  public static final String COMMIT_INTERVAL_MS = "router.commit.interval.ms";
  public static final String POLICY = "router.policy";
  public static final String OBJECTIVE_TTFT_MS = "router.objective.ttft.ms";
  public static final String OBJECTIVE_TPOT_MS = "router.objective.tpot.ms";
  public static final String AVOID_AFTER_CUTOVERS = "router.avoid.after.cutovers";
  public static final String AVOID_WINDOW_MS = "router.avoid.window.ms";
  public static final String AVOID_HOLD_MS = "router.avoid.hold.ms";
  public static final String PREFIX_INDEX_BLOCKS = "router.prefix.index.blocks";
  public static final String GATEWAY_SIGNING_SECRET = "router.gateway.signing.secret";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(ROUTER_ID, Type.STRING, "", Importance.HIGH,
          "This router's id, unique and stable across restarts: its transactional id, so that a restarted"
              + " router fences its predecessor's open transaction at once, and its static group membership, so"
              + " that it takes back its predecessor's partitions without a rebalance; when empty,"
              + " router-<host name>-<HTTP port> (the pod's name in Kubernetes: run routers as a StatefulSet), or a random suffix with"
              + " port 0.")
      .define(GROUP_ID, Type.STRING, "zerolayer-router", Importance.HIGH,
          "Consumer group shared by all routers of a deployment.")
      .define(MAX_OUTPUT_TOKENS, Type.INT, 4096, Range.atLeast(1), Importance.MEDIUM,
          "Largest maxOutputTokens a request may ask for.")
      .define(MAX_PROMPT_CHARS, Type.INT, 200_000, Range.atLeast(1), Importance.MEDIUM,
          "Largest prompt, in characters, a request may carry.")
      .define(DEFAULT_RETRY_AFTER_MS, Type.LONG, 1000L, Range.atLeast(1L), Importance.LOW,
          "Retry time given when the heatmap knows no instance at all, in ms.")
      .define(MAX_ATTEMPTS, Type.INT, 4, Range.between(1, 100), Importance.MEDIUM,
          "Attempts a sequence gets (the first and its cut-overs); then its stream ends with the error.")
      .define(MAX_QUEUE_WAIT_MS, Type.LONG, 10_000L, Range.atLeast(0L), Importance.MEDIUM,
          "Zerolayer's policy sends a new request to no instance that would queue it longer than this before"
              + " its prefill (as predicted); with none left, the request is throttled with the time until the"
              + " shortest queue is that short. In ms; 0 for no bound.")
      .define(STALL_HOLD_MS, Type.LONG, 10_000L, Range.atLeast(0L), Importance.MEDIUM,
          "A stalled sequence no other instance can take now stays where it is: one that still streams goes"
              + " on, and one that went quiet waits for an instance until it has been quiet this long; then"
              + " its stream ends throttled, with a retry time. In ms; 0 ends it at once.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8082, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.")
      .define(TENANTS_FILE, Type.STRING, "", Importance.HIGH,
          "JSON file of the tenants, their API key hashes and rate limits (see the README).")
      .define(SESSION_TIMEOUT_MS, Type.INT, 6_000, Range.between(1_000, 300_000), Importance.MEDIUM,
          "Consumer session timeout: how soon the other routers take over a dead router's requests, in ms.")
      .define(TRANSACTION_TIMEOUT_MS, Type.INT, 10_000, Range.between(1_000, 900_000), Importance.MEDIUM,
          "Transaction timeout: how soon a dead router's open transaction is aborted, in ms.")
      .define(COMMIT_INTERVAL_MS, Type.LONG, 100L, Range.between(0L, 5_000L), Importance.MEDIUM,
          "How long a router's transaction stays open for more requests, in ms. Dispatches go out as they are"
              + " decided; decisions, holds and refusals become readable (read_committed) at the commit. 0 commits"
              + " after every poll, which costs the poll loop a commit's round trips each time.")
      .define(POLICY, Type.STRING, RoutingPolicies.DEFAULT,
          ValidString.in(RoutingPolicies.NAMES.toArray(String[]::new)), Importance.MEDIUM,
          "Routing policy: zerolayer (latency-aware), or a baseline to compare it with:"
              + " round-robin, least-outstanding, p2c (power of two choices), epp (endpoint picker).")
      .define(OBJECTIVE_TTFT_MS, Type.LONG, (long) ServiceObjective.DEFAULT.ttftMs(), Range.atLeast(1L),
          Importance.MEDIUM, "The service objective's time to the first token, in ms: zerolayer's policy ranks the"
              + " instances predicted to meet the objective first, by their predicted latency, then the rest.")
      .define(OBJECTIVE_TPOT_MS, Type.LONG, (long) ServiceObjective.DEFAULT.tpotMs(), Range.atLeast(1L),
          Importance.MEDIUM, "The service objective's time per output token after the first, in ms.")
      .define(AVOID_AFTER_CUTOVERS, Type.INT, 2, Range.between(0, 1_000), Importance.LOW,
          "Zerolayer's policy keeps new work off an instance once this router cut this many different"
              + " sequences away from it within " + AVOID_WINDOW_MS + ", unless more than a third of the instances"
              + " qualify at once; 0 never does.")
      .define(AVOID_WINDOW_MS, Type.LONG, 1_000L, Range.atLeast(1L), Importance.LOW,
          "Window in which those cut-overs count, in ms.")
      .define(AVOID_HOLD_MS, Type.LONG, 2_000L, Range.atLeast(1L), Importance.LOW,
          "How long new work stays off such an instance after its latest cut-over away from it, in ms.")
      .define(PREFIX_INDEX_BLOCKS, Type.INT, 16_384, Range.atLeast(1), Importance.LOW,
          "Prompt blocks (64 characters each) the router remembers per instance as held in its prefix cache,"
              + " some 80 bytes of heap each (1.3 MB per instance at the default); the least recently seen are"
              + " forgotten first.")
      .define(GATEWAY_SIGNING_SECRET, Type.PASSWORD, null, RouterConfig::validateSecret, Importance.MEDIUM,
          "The secret shared with the HTTP gateways (at least " + TenantSignature.MIN_SECRET_BYTES + " bytes); a"
              + " request the gateway signed is authenticated by it instead of an API key. Unset: signed requests"
              + " are refused.");

  /** Fails at startup, naming the key, rather than at the first signed request. */
  private static void validateSecret(final String name, final Object value) {
    final String secret = value == null ? "" : ((Password) value).value();
    final int bytes = secret.getBytes(StandardCharsets.UTF_8).length;
    if (!secret.isEmpty() && bytes < TenantSignature.MIN_SECRET_BYTES) {
      throw new ConfigException(name + " has " + bytes + " bytes; it needs at least "
          + TenantSignature.MIN_SECRET_BYTES + " (for example: openssl rand -hex 32)");
    }
  }

  public RouterConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_ROUTER_...} variables, defaults elsewhere. */
  public static RouterConfig fromEnvironment(final Map<String, String> env) {
    return new RouterConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String routerId() {
    final String id = getString(ROUTER_ID);
    if (!id.isBlank()) {
      return id;
    }
    final String suffix = httpPort() > 0 ? String.valueOf(httpPort()) : UUID.randomUUID().toString().substring(0, 8);
    return "router-" + hostName() + "-" + suffix;
  }

  /** The host's name: the pod's in Kubernetes ({@code HOSTNAME}), else what the resolver says. */
  private static String hostName() {
    final String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (final UnknownHostException e) {
      return "unknown-host";
    }
  }

  public String groupId() {
    return getString(GROUP_ID);
  }

  public int maxOutputTokens() {
    return getInt(MAX_OUTPUT_TOKENS);
  }

  public int maxPromptChars() {
    return getInt(MAX_PROMPT_CHARS);
  }

  public long defaultRetryAfterMs() {
    return getLong(DEFAULT_RETRY_AFTER_MS);
  }

  public int maxAttempts() {
    return getInt(MAX_ATTEMPTS);
  }

  public long maxQueueWaitMs() {
    return getLong(MAX_QUEUE_WAIT_MS);
  }

  public Duration stallHold() {
    return Duration.ofMillis(getLong(STALL_HOLD_MS));
  }

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  /** The tenant file; fails with the fix when none is configured. */
  public Path tenantsFile() {
    final String file = getString(TENANTS_FILE);
    if (file.isBlank()) {
      throw new IllegalArgumentException(TENANTS_FILE + " is not set: point " + EnvironmentConfig.variable(TENANTS_FILE)
          + " at the tenant file (see the README)");
    }
    return Path.of(file);
  }

  public int sessionTimeoutMs() {
    return getInt(SESSION_TIMEOUT_MS);
  }

  public Duration commitInterval() {
    return Duration.ofMillis(getLong(COMMIT_INTERVAL_MS));
  }

  public int transactionTimeoutMs() {
    return getInt(TRANSACTION_TIMEOUT_MS);
  }

  public int avoidAfterCutovers() {
    return getInt(AVOID_AFTER_CUTOVERS);
  }

  public Duration avoidWindow() {
    return Duration.ofMillis(getLong(AVOID_WINDOW_MS));
  }

  public Duration avoidHold() {
    return Duration.ofMillis(getLong(AVOID_HOLD_MS));
  }

  public int prefixIndexBlocks() {
    return getInt(PREFIX_INDEX_BLOCKS);
  }

  /**
   * How requests the HTTP gateways signed are verified; empty when no secret is set (or it is
   * set empty), and then only API keys authenticate.
   */
  public Optional<TenantSignature> gatewaySignature() {
    final Password secret = getPassword(GATEWAY_SIGNING_SECRET);
    return secret == null || secret.value().isEmpty() ? Optional.empty()
        : Optional.of(new TenantSignature(secret.value()));
  }

  /** What zerolayer's policy ranks the instances against. */
  public ServiceObjective serviceObjective() {
    return new ServiceObjective(getLong(OBJECTIVE_TTFT_MS), getLong(OBJECTIVE_TPOT_MS));
  }

  /** The routing policy's name, one of {@link RoutingPolicies#NAMES}. */
  public String policyName() {
    return getString(POLICY);
  }
}
