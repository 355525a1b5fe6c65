package io.zerolayer.it;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RoutingPolicy;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What the mid-stream tests share: two slow simulated instances in one zone, the pipeline, a
 * client, the decisions and the response chunks read back, on topics of their own; and the
 * first steps of each test: a long story requested, its first decision, its first tokens.
 */
final class StreamingRig implements AutoCloseable {

  /** Slow decode (40 ms a step) so the stream is still running when a test interferes. */
  private static final GpuProfile SLOW = new GpuProfile(16, 20, 0.05, 40, 0.5, Duration.ofSeconds(8), 4);

  /**
   * A story requested and its first routing decision.
   *
   * @param request what was sent
   * @param answer the response, once its stream ends
   * @param first the first attempt's decision
   */
  record Story(InferenceRequest request, CompletableFuture<Response> answer, RoutingDecision first) {
  }

  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private final TopicCatalogue catalogue;
  private final ClusterSettings settings;
  private Fleet fleet;
  private Pipeline pipeline;
  private ContractSerdes serdes;
  private DecisionLog decisions;
  private RecordCollector<String, ResponseChunk> responses;
  private InferenceClient client;

  private StreamingRig(final TestCluster.Handle cluster) {
    this.catalogue = cluster.newCatalogue();
    this.settings = cluster.settings(catalogue);
  }

  /** Zerolayer's policy with cut-over, as deployed. */
  static StreamingRig start(final TestCluster.Handle cluster) throws Exception {
    return start(cluster, new LatencyAwarePolicy(), true);
  }

  /** Zerolayer's policy with cut-over, and router settings over the defaults. */
  static StreamingRig start(final TestCluster.Handle cluster, final Map<String, ?> routerSettings)
      throws Exception {
    return start(cluster, new LatencyAwarePolicy(), true, routerSettings);
  }

  /** Starts everything and waits until the router sees both instances. */
  static StreamingRig start(final TestCluster.Handle cluster, final RoutingPolicy policy, final boolean cutover)
      throws Exception {
    return start(cluster, policy, cutover, Map.of());
  }

  private static StreamingRig start(final TestCluster.Handle cluster, final RoutingPolicy policy,
      final boolean cutover, final Map<String, ?> routerSettings) throws Exception {
    final StreamingRig rig = new StreamingRig(cluster);
    try {
      rig.fleet = rig.open(Fleet.start(rig.settings, 2, List.of("zone-a"), SLOW, new SimpleMeterRegistry()));
      rig.pipeline = rig.open(Pipeline.start(rig.settings, cluster.stateDir(rig.catalogue), false,
          TestTenants.UNLIMITED, policy, cutover, routerSettings));
      rig.serdes = rig.open(new ContractSerdes(rig.settings.serdes()));
      rig.decisions = rig.open(new DecisionLog(rig.settings, rig.serdes));
      rig.responses = rig.open(new RecordCollector<>(rig.settings, rig.catalogue.name(Topics.RESPONSES),
          new StringDeserializer(), rig.serdes.value(Topics.RESPONSES).deserializer()));
      rig.client = rig.open(new InferenceClient(rig.settings, rig.serdes));
      Awaits.routerSees(rig.pipeline, rig.fleet.instanceIds());
      return rig;
    } catch (final Exception | AssertionError e) {
      rig.close();
      throw e;
    }
  }

  /** Requests a story of 64 tokens and waits for its first decision. */
  Story requestStory(final String sequenceId, final long seed) {
    final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId(sequenceId).setTenantId("t")
        .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story.").setMaxOutputTokens(64).setSeed(seed)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
    final CompletableFuture<Response> answer = client.submit(request);
    final RoutingDecision first = decisions.awaitFor(List.of(sequenceId), Duration.ofSeconds(30)).get(sequenceId)
        .get(0);
    return new Story(request, answer, first);
  }

  /** Waits until at least {@code count} of the sequence's tokens reached the client; how many did. */
  int awaitTokens(final String sequenceId, final int count) {
    return tokens(responses.awaitUntil(records -> tokens(records, sequenceId) >= count, Duration.ofSeconds(30)),
        sequenceId);
  }

  /** How many of the sequence's tokens reached the client so far. */
  int tokensSoFar(final String sequenceId) {
    return tokens(responses.records(), sequenceId);
  }

  private static int tokens(final List<ConsumerRecord<String, ResponseChunk>> records, final String sequenceId) {
    return records.stream().filter(r -> r.key().equals(sequenceId)).mapToInt(r -> r.value().getTokens().size())
        .sum();
  }

  TopicCatalogue catalogue() {
    return catalogue;
  }

  ClusterSettings settings() {
    return settings;
  }

  ContractSerdes serdes() {
    return serdes;
  }

  Fleet fleet() {
    return fleet;
  }

  Pipeline pipeline() {
    return pipeline;
  }

  DecisionLog decisions() {
    return decisions;
  }

  private <T extends AutoCloseable> T open(final T piece) {
    opened.push(piece);
    return piece;
  }

  /** Closes what was opened, newest first. */
  @Override
  public void close() throws Exception {
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
