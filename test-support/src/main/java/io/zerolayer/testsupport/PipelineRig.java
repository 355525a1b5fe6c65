package io.zerolayer.testsupport;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.gateway.Gateway;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RoutingPolicy;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The pieces one integration test asks for, wired to the shared broker and registry on topics of
 * the test's own: a simulated fleet, the pipeline (heatmap-streams, token-buffer, a router), and
 * readers of what they write. Built by {@link #on(TestCluster.Handle)}; {@link #close()} closes
 * everything it opened, newest first.
 *
 * <pre>{@code
 * try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard()).start()) {
 *   rig.client().submit(request);
 *   rig.decisions().awaitFor(List.of(id), Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class PipelineRig implements AutoCloseable {

  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private final TopicCatalogue catalogue;
  private final ClusterSettings settings;
  private final Path stateDir;
  private final ContractSerdes serdes;
  private final StreamsDurability durability;
  private Fleet fleet;
  private Pipeline pipeline;
  private DecisionLog decisions;
  private RecordCollector<String, ResponseChunk> responses;
  private InferenceClient client;
  private Gateway gateway;
  private final String signingSecret = TenantSignature.newSecret();

  private PipelineRig(final TestCluster.Handle cluster) throws IOException {
    this.catalogue = cluster.newCatalogue();
    this.settings = cluster.settings(catalogue);
    this.stateDir = cluster.stateDir(catalogue);
    this.durability = cluster.durability();
    this.serdes = open(new ContractSerdes(settings.serdes()));
  }

  /** A rig on the shared cluster; say which pieces it starts, then {@link Builder#start()}. */
  public static Builder on(final TestCluster.Handle cluster) {
    return new Builder(requireNonNull(cluster, "cluster"));
  }

  /** Which pieces a rig starts. Without a call, it starts the pipeline and no fleet. */
  public static final class Builder {
    private final TestCluster.Handle cluster;
    private int instances;
    private List<String> zones = List.of();
    private GpuProfile profile = GpuProfile.standard();
    private boolean pipeline = true;
    private TenantDirectory tenants = TestTenants.UNLIMITED;
    private Supplier<RoutingPolicy> policy = LatencyAwarePolicy::new;
    private boolean cutover = true;
    private Map<String, ?> routerSettings = Map.of();
    private Map<String, ?> gatewaySettings = Map.of();
    private int gatewayReplicas;

    private Builder(final TestCluster.Handle cluster) {
      this.cluster = cluster;
    }

    /** A simulated fleet of {@code size} instances spread over {@code zones}. */
    public Builder fleet(final int size, final List<String> zones, final GpuProfile profile) {
      this.instances = size;
      this.zones = List.copyOf(zones);
      this.profile = requireNonNull(profile, "profile");
      return this;
    }

    /** No pipeline: the test starts the apps it needs itself (and may hand them to {@link #open}). */
    public Builder withoutPipeline() {
      this.pipeline = false;
      return this;
    }

    /** The tenants the router serves ({@link TestTenants#UNLIMITED} unless set). */
    public Builder tenants(final TenantDirectory tenants) {
      this.tenants = requireNonNull(tenants, "tenants");
      return this;
    }

    /** The router's policy (Zerolayer's unless set) and whether token-buffer cuts over. */
    public Builder policy(final Supplier<RoutingPolicy> policy, final boolean cutover) {
      this.policy = requireNonNull(policy, "policy");
      this.cutover = cutover;
      return this;
    }

    /** Router settings ({@code RouterConfig} keys) over the defaults. */
    public Builder routerSettings(final Map<String, ?> routerSettings) {
      this.routerSettings = Map.copyOf(routerSettings);
      return this;
    }

    /** Settings of the gateway beside those the rig gives it (its port, secret and token-buffer's address). */
    public Builder gatewaySettings(final Map<String, ?> gatewaySettings) {
      this.gatewaySettings = Map.copyOf(gatewaySettings);
      return this;
    }

    /** An HTTP gateway in front of the pipeline, on a free port, for the rig's tenants. */
    public Builder gateway() {
      return gateway(1);
    }

    /** As {@link #gateway()}, the first of {@code replicas}, whose other replicas the test starts. */
    public Builder gateway(final int replicas) {
      this.gatewayReplicas = replicas;
      return this;
    }

    /** Starts the pieces and, with a fleet and a pipeline, waits until the router sees every instance. */
    public PipelineRig start() throws Exception {
      final PipelineRig rig = new PipelineRig(cluster);
      try {
        if (instances > 0) {
          rig.fleet = rig.open(Fleet.start(rig.settings, instances, zones, profile, new SimpleMeterRegistry()));
        }
        final Map<String, Object> router = new HashMap<>(routerSettings);
        final String secret = rig.signingSecret;
        router.put(RouterConfig.GATEWAY_SIGNING_SECRET, secret);
        if (pipeline) {
          rig.pipeline = rig.open(Pipeline.start(rig.settings, rig.stateDir, false, tenants, policy.get(), cutover,
              router, rig.durability));
          if (rig.fleet != null) {
            Awaits.routerSees(rig.pipeline, rig.fleet.instanceIds());
          }
        }
        if (gatewayReplicas > 0) {
          final Map<String, Object> gateway = new HashMap<>(gatewaySettings);
          gateway.putAll(Map.of(GatewayConfig.HTTP_PORT, 0, GatewayConfig.SIGNING_SECRET, secret,
              GatewayConfig.SEQUENCE_QUERY_URL, rig.pipeline().tokenBufferUrl(), GatewayConfig.SEQUENCE_QUERY_TOKEN,
              rig.pipeline().sequenceQueryToken(), GatewayConfig.REPLICAS, gatewayReplicas));
          rig.gateway = rig.open(Gateway.start(new GatewayConfig(gateway), tenants, rig.settings, rig.serdes));
        }
        return rig;
      } catch (final Exception | AssertionError e) {
        rig.close();
        throw e;
      }
    }
  }

  /** Hands a piece the test started to the rig, which closes it before what it opened earlier. */
  public synchronized <T extends AutoCloseable> T open(final T piece) {
    opened.push(piece);
    return piece;
  }

  /** Every record of one of the catalogue's sequence- or instance-keyed topics, read in the background. */
  public <V extends SpecificRecord> RecordCollector<String, V> collect(final Topic<String, V> topic) {
    return open(new RecordCollector<>(settings, catalogue.name(topic), new StringDeserializer(),
        serdes.value(topic).deserializer()));
  }

  /** Every record of a topic as raw bytes, for dead-letter topics and records that are not Avro. */
  public RecordCollector<byte[], byte[]> collectRaw(final Topic<?, ?> topic) {
    return open(new RecordCollector<>(settings, catalogue.name(topic), new ByteArrayDeserializer(),
        new ByteArrayDeserializer()));
  }

  /** The routing decisions of the test's topics, from the first. */
  public DecisionLog decisions() {
    if (decisions == null) {
      decisions = open(new DecisionLog(settings, serdes));
    }
    return decisions;
  }

  /** The response chunks of the test's topics, from the first. */
  public RecordCollector<String, ResponseChunk> responses() {
    if (responses == null) {
      responses = collect(Topics.RESPONSES);
    }
    return responses;
  }

  /** A client on the test's topics; it sees responses from its first call on, so call it before submitting. */
  public InferenceClient client() {
    if (client == null) {
      client = open(new InferenceClient(settings, serdes));
    }
    return client;
  }

  public TopicCatalogue catalogue() {
    return catalogue;
  }

  public ClusterSettings settings() {
    return settings;
  }

  /** The test's own empty directory for state stores, logs and files. */
  public Path stateDir() {
    return stateDir;
  }

  /** Replicas of the streams apps' own topics on the rig's cluster, and their standbys. */
  public StreamsDurability durability() {
    return durability;
  }

  public ContractSerdes serdes() {
    return serdes;
  }

  /** The fleet; fails if the rig started none. */
  public Fleet fleet() {
    return requireNonNull(fleet, "this rig started no fleet; ask for one with Builder.fleet(...)");
  }

  /** The secret the rig's router shares with gateways, for a gateway the test starts itself. */
  public String signingSecret() {
    return signingSecret;
  }

  /** The HTTP gateway; fails if the rig started none. */
  public Gateway gateway() {
    return requireNonNull(gateway, "this rig started no gateway; ask for one with Builder.gateway()");
  }

  /** The pipeline; fails if the rig started none. */
  public Pipeline pipeline() {
    return requireNonNull(pipeline, "this rig started no pipeline (Builder.withoutPipeline() was called)");
  }

  /** Closes what was opened, newest first; the first failure is thrown once all are closed. */
  @Override
  public synchronized void close() throws Exception {
    Exception first = null;
    while (!opened.isEmpty()) {
      try {
        opened.pop().close();
      } catch (final Exception e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
