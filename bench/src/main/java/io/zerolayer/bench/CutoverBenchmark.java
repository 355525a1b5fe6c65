package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.TextModel;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Stalls the worker of one streaming sequence after another and measures each cut-over: the
 * detection time (from the stall to token-buffer's report) and the pause the client sees (from
 * the last token before the stall to the first resumed one); checks each text byte for byte.
 */
public final class CutoverBenchmark {

  private static final int TOKENS_BEFORE_STALL = 8;
  private static final long WAIT_MS = 60_000;

  private final ClusterSettings cluster;
  private final Fleet fleet;
  private final PrintStream out;

  public CutoverBenchmark(final ClusterSettings cluster, final Fleet fleet, final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.fleet = requireNonNull(fleet, "fleet");
    this.out = requireNonNull(out, "out");
  }

  /** Runs {@code cutovers} cut-overs one after another and prints the table. */
  public void run(final int cutovers, final String tenant, final String apiKey) throws Exception {
    final List<Long> detection = new ArrayList<>();
    final List<Long> pause = new ArrayList<>();
    int identical = 0;
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        ChunkWatcher<ResponseChunk> chunks = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.RESPONSES),
            serdes.value(Topics.RESPONSES).deserializer(), ResponseChunk::getSequenceId);
        ChunkWatcher<StallDetected> stalls = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.STALLS),
            serdes.value(Topics.STALLS).deserializer(), StallDetected::getSequenceId);
        InferenceClient client = new InferenceClient(cluster, serdes)) {
      for (int i = 0; i < cutovers; i++) {
        final InferenceRequest request = request("cutover-" + i, i, tenant, apiKey);
        final CompletableFuture<Response> answer = client.submit(request);
        await(() -> chunks.sum(request.getSequenceId(), c -> c.getTokens().size()) >= TOKENS_BEFORE_STALL);
        final String owner = chunks.of(request.getSequenceId()).get(0).value().getInstanceId();
        final long stalledAt = System.currentTimeMillis();
        fleet.gpu(owner).stall();
        final Response response = answer.get(WAIT_MS, TimeUnit.MILLISECONDS);
        fleet.gpu(owner).resume();
        if (response.outcome() == RoutingOutcome.CUTOVER && response.text().equals(TextModel.text(request.getPrompt(), request.getSeed(),
            request.getMaxOutputTokens()))) {
          identical++;
        }
        stalls.of(request.getSequenceId()).stream().findFirst()
            .ifPresent(s -> detection.add(s.value().getDetectedAtMs() - stalledAt));
        clientPause(chunks.of(request.getSequenceId())).ifPresent(pause::add);
        if ((i + 1) % 10 == 0) {
          out.printf("  %d/%d cut-overs%n", i + 1, cutovers);
        }
      }
    }
    print(cutovers, identical, detection, pause);
  }

  /** From the last chunk of epoch 1 to the first chunk of a later epoch, as the client read them. */
  private static Optional<Long> clientPause(final List<ChunkWatcher.Seen<ResponseChunk>> seen) {
    long lastBefore = -1;
    for (final ChunkWatcher.Seen<ResponseChunk> chunk : seen) {
      if (chunk.value().getEpoch() <= 1 && !chunk.value().getTokens().isEmpty()) {
        lastBefore = chunk.readAtMs();
      } else if (chunk.value().getEpoch() > 1 && !chunk.value().getTokens().isEmpty() && lastBefore >= 0) {
        return Optional.of(chunk.readAtMs() - lastBefore);
      }
    }
    return Optional.empty();
  }

  private void print(final int cutovers, final int identical, final List<Long> detection, final List<Long> pause) {
    out.printf("%nCut-overs: %d stalled sequences, %d finished on a backup with byte-identical text%n%n", cutovers,
        identical);
    out.println("| measured | p50 ms | p99 ms | max ms | samples |");
    out.println("|---|---:|---:|---:|---:|");
    row("detection: stall to StallDetected", detection);
    row("client pause: last token before to first resumed token", pause);
  }

  private void row(final String label, final List<Long> values) {
    if (values.isEmpty()) {
      out.printf("| %s | - | - | - | 0 |%n", label);
      return;
    }
    final Percentiles p = new Percentiles(values);
    out.printf("| %s | %d | %d | %d | %d |%n", label, p.at(50), p.at(99), p.max(), p.count());
  }

  private static void await(final BooleanSupplier condition) throws InterruptedException {
    final long deadline = System.currentTimeMillis() + WAIT_MS;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("The sequence did not start streaming within " + WAIT_MS + " ms");
      }
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  private static InferenceRequest request(final String id, final int seed, final String tenant, final String key) {
    return InferenceRequest.newBuilder().setSequenceId(id).setTenantId(tenant).setApiKey(key)
        .setPrompt("Cut-over benchmark " + id + ": tell a long story.").setMaxOutputTokens(400).setSeed(seed)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
  }
}
