package io.zerolayer.it;

import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RoutingPolicy;
import io.zerolayer.testsupport.DecisionLog;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What the mid-stream tests share, on a {@link PipelineRig}: two slow simulated instances in one
 * zone, the pipeline, a client, the decisions and the response chunks read back; and the first
 * steps of each test: a long story requested, its first decision, its first tokens.
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

  private final PipelineRig rig;

  private StreamingRig(final PipelineRig rig) {
    this.rig = rig;
  }

  /** Zerolayer's policy with cut-over, as deployed. */
  static StreamingRig start(final TestCluster.Handle cluster) throws Exception {
    return start(cluster, LatencyAwarePolicy::new, true, Map.of());
  }

  /** Zerolayer's policy with cut-over, and router settings over the defaults. */
  static StreamingRig start(final TestCluster.Handle cluster, final Map<String, ?> routerSettings)
      throws Exception {
    return start(cluster, LatencyAwarePolicy::new, true, routerSettings);
  }

  /** Starts everything and waits until the router sees both instances. */
  static StreamingRig start(final TestCluster.Handle cluster, final Supplier<RoutingPolicy> policy,
      final boolean cutover) throws Exception {
    return start(cluster, policy, cutover, Map.of());
  }

  private static StreamingRig start(final TestCluster.Handle cluster, final Supplier<RoutingPolicy> policy,
      final boolean cutover, final Map<String, ?> routerSettings) throws Exception {
    final PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), SLOW).policy(policy, cutover)
        .routerSettings(routerSettings).start();
    try {
      rig.decisions();
      rig.responses();
      rig.client();
      return new StreamingRig(rig);
    } catch (final RuntimeException e) {
      rig.close();
      throw e;
    }
  }

  /** Requests a story of 64 tokens and waits for its first decision. */
  Story requestStory(final String sequenceId, final long seed) {
    final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId(sequenceId).setTenantId("t")
        .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story.").setMaxOutputTokens(64).setSeed(seed)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
    final CompletableFuture<Response> answer = rig.client().submit(request);
    final RoutingDecision first = rig.decisions().awaitFor(List.of(sequenceId), Duration.ofSeconds(30)).get(sequenceId)
        .get(0);
    return new Story(request, answer, first);
  }

  /** Waits until at least {@code count} of the sequence's tokens reached the client; how many did. */
  int awaitTokens(final String sequenceId, final int count) {
    return tokens(rig.responses().awaitUntil(records -> tokens(records, sequenceId) >= count, Duration.ofSeconds(30)),
        sequenceId);
  }

  /** How many of the sequence's tokens reached the client so far. */
  int tokensSoFar(final String sequenceId) {
    return tokens(rig.responses().records(), sequenceId);
  }

  private static int tokens(final List<ConsumerRecord<String, ResponseChunk>> records, final String sequenceId) {
    return records.stream().filter(r -> r.key().equals(sequenceId)).mapToInt(r -> r.value().getTokens().size())
        .sum();
  }

  TopicCatalogue catalogue() {
    return rig.catalogue();
  }

  ClusterSettings settings() {
    return rig.settings();
  }

  ContractSerdes serdes() {
    return rig.serdes();
  }

  Fleet fleet() {
    return rig.fleet();
  }

  Pipeline pipeline() {
    return rig.pipeline();
  }

  DecisionLog decisions() {
    return rig.decisions();
  }

  @Override
  public void close() throws Exception {
    rig.close();
  }
}
