package io.zerolayer.router.bench;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.internal.Decider;
import io.zerolayer.router.internal.Decision;
import io.zerolayer.router.internal.ExpectedWork;
import io.zerolayer.router.internal.LocalDispatches;
import io.zerolayer.router.internal.LocalView;
import io.zerolayer.router.internal.PrefixIndex;
import io.zerolayer.router.internal.RecentCutovers;
import io.zerolayer.router.internal.RequestDecider;
import io.zerolayer.router.internal.RequestValidator;
import io.zerolayer.router.internal.SequenceHolds;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RequestProfile;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One routing decision over a heatmap of many instances: stage 1 alone ({@code select}), and
 * stages 0 and 1 together as a router runs them per request ({@code decide}: validation,
 * tenant and API key, cl100k token count, rate limits, selection). Sample-time mode, so JMH
 * prints the median and the 99th percentile.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SelectionBenchmark {

  @Param({"1000"})
  int instances;

  /**
   * Whether the rows carry what each running request may still generate (with a fitted decode
   * step), as the simulated engines report it: every busy instance's queue wait then walks its batch.
   */
  @Param({"false", "true"})
  boolean reportsTokensToLimit;

  private Heatmap heatmap;
  private Decider decider;
  private RequestDecider requestDecider;
  private RequestProfile profile;
  private InferenceRequest request;
  private long clock;

  @Setup
  public void setUp() {
    final Random random = new Random(7);
    final Map<String, InstanceScore> rows = new HashMap<>();
    for (int i = 0; i < instances; i++) {
      rows.put("gpu-" + i, row("gpu-" + i, random, reportsTokensToLimit));
    }
    heatmap = new Heatmap(rows, 1);
    // The router's own queue-wait bound, as it decides by default.
    decider = new Decider(new LatencyAwarePolicy(), 1000, 4, new RouterConfig(Map.of()).maxQueueWaitMs());
    requestDecider = new RequestDecider(new RequestValidator(4096, 200_000, Set.of()),
        TenantDirectory.of(List.of(new Tenant("acme", Tenant.hashKey("key"), 1e12, 1e15, 1))), Optional.empty(),
        decider,
        new LocalView(new LocalDispatches(), new ExpectedWork(),
            new RecentCutovers(2, Duration.ofSeconds(1), Duration.ofSeconds(2))),
        new SequenceHolds(), topic -> true, new PrefixIndex(65_536));
    profile = new RequestProfile("s", 180, 256);
    request = InferenceRequest.newBuilder().setSequenceId("s").setTenantId("acme").setApiKey("key")
        .setPrompt("Summarise the following support ticket in three bullet points. ".repeat(12))
        .setMaxOutputTokens(256).setSubmittedAtMs(0).build();
  }

  @Benchmark
  public Decision select() {
    return decider.select(profile, heatmap, () -> heatmap);
  }

  @Benchmark
  public Decision decide() {
    clock += 1_000_000;
    // One place on the ingress topic: the same request each time, which its own hold does not refuse.
    return requestDecider.decide("s", request, 0, 0, () -> heatmap, clock / 1_000_000, clock).decision();
  }

  private static InstanceScore row(final String id, final Random random, final boolean reports) {
    final InstanceScore row = InstanceScore.newBuilder()
        .setInstanceId(id).setZone("zone-" + random.nextInt(4)).setModel("m")
        .setState(InstanceState.HEALTHY).setWeight(0.2 + 0.8 * random.nextDouble()).setReason("")
        .setWarmupLevel(1.0).setGpuUtilization(random.nextDouble() * 0.9).setVramFragmentation(0.3)
        .setTokenIntervalStddevMs(5).setTcpRetransmitRate(0).setQueueLength(random.nextInt(8))
        .setRunningRequests(1 + random.nextInt(16)).setDecodeTokensPerS(500).setZonePenalised(random.nextInt(10) == 0)
        .setLatencyModel(LatencyModel.newBuilder().setLatencyInterceptMs(30 + random.nextInt(30))
            .setLatencyPerInputTokenMs(0.1).setLatencyPerOutputTokenMs(15 + random.nextInt(10))
            .setTtftInterceptMs(30).setTtftPerInputTokenMs(0.1).setSamples(100).build())
        .setLastTelemetryMs(0).setUpdatedAtMs(0)
        .build();
    if (reports) {
      row.getLatencyModel().setDecodeStepBaseMs(8);
      row.getLatencyModel().setDecodeStepPerSequenceMs(0.5);
      row.setBatchSlots(16);
      row.setRunningTokensToLimit(random.ints(row.getRunningRequests(), 0, 512).boxed().toList());
    }
    return row;
  }
}
