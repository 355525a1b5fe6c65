package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.TextModel;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Stalls the worker of one streaming sequence after another and measures each cut-over: the
 * detection time (from the stall to token-buffer's report), by the rule that detected it; the
 * part after detection (from the report to the first resumed token the client is handed), split
 * at the backup's claim and at its first resumed token as the worker wrote them; and
 * the pause the client sees (from the last token before the stall to the first resumed one);
 * checks each text byte for byte.
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
    final Map<String, List<Long>> detection = new TreeMap<>();
    final List<Long> afterDetection = new ArrayList<>();
    final AfterDetection parts = new AfterDetection();
    final List<Long> pause = new ArrayList<>();
    final Map<String, List<Handed>> handed = new ConcurrentHashMap<>();
    int identical = 0;
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        ChunkWatcher<StallDetected> stalls = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.STALLS),
            serdes.value(Topics.STALLS).deserializer(), StallDetected::getSequenceId, true);
        ChunkWatcher<TokenChunk> tokens = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.TOKENS),
            serdes.value(Topics.TOKENS).deserializer(), TokenChunk::getSequenceId, false);
        InferenceClient client = new InferenceClient(cluster, serdes, chunk -> {
          if (!chunk.getTokens().isEmpty()) {
            handed.computeIfAbsent(chunk.getSequenceId(), id -> new CopyOnWriteArrayList<>())
                .add(new Handed(chunk.getEpoch(), chunk.getInstanceId(), chunk.getTokens().size(),
                    System.currentTimeMillis()));
          }
        })) {
      for (int i = 0; i < cutovers; i++) {
        final InferenceRequest request = request("cutover-" + i, i, tenant, apiKey);
        final String id = request.getSequenceId();
        final CompletableFuture<Response> answer = client.submit(request);
        await(() -> handed.getOrDefault(id, List.of()).stream().mapToInt(Handed::tokens).sum()
            >= TOKENS_BEFORE_STALL);
        final String owner = handed.get(id).get(0).instanceId();
        final long stalledAt = System.currentTimeMillis();
        fleet.gpu(owner).stall();
        final Response response = answer.get(WAIT_MS, TimeUnit.MILLISECONDS);
        fleet.gpu(owner).resume();
        final String expected = TextModel.text(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens(),
            request.getIgnoreEos());
        if (response.outcome() == RoutingOutcome.CUTOVER && response.text().equals(expected)) {
          identical++;
        } else {
          out.printf("  %s did not finish on a backup with the same text: %s%n", id,
              mismatch(response, expected, handed.getOrDefault(id, List.of())));
        }
        final Optional<StallDetected> stall = stalls.of(id).stream().findFirst().map(ChunkWatcher.Seen::value);
        stall.ifPresent(s -> detection.computeIfAbsent(rule(s.getReason()), r -> new ArrayList<>())
            .add(s.getDetectedAtMs() - stalledAt));
        final Optional<Handed> resumed = handed.getOrDefault(id, List.of()).stream().filter(h -> h.epoch() > 1)
            .findFirst();
        if (stall.isPresent() && resumed.isPresent()) {
          afterDetection.add(resumed.get().atMs() - stall.get().getDetectedAtMs());
          parts.add(stall.get().getDetectedAtMs(), tokens.of(id), resumed.get().atMs());
        }
        clientPause(handed.getOrDefault(id, List.of())).ifPresent(pause::add);
        if ((i + 1) % 10 == 0) {
          out.printf("  %d/%d cut-overs%n", i + 1, cutovers);
        }
      }
    }
    print(cutovers, identical, detection, afterDetection, parts, pause);
  }

  /** The part after detection, split where the backup's worker wrote its claim and its first resumed token. */
  private static final class AfterDetection {
    private final List<Long> toClaim = new ArrayList<>();
    private final List<Long> backup = new ArrayList<>();
    private final List<Long> toClient = new ArrayList<>();

    void add(final long detectedAtMs, final List<ChunkWatcher.Seen<TokenChunk>> written, final long handedAtMs) {
      final Optional<TokenChunk> claim = written.stream().map(ChunkWatcher.Seen::value)
          .filter(c -> c.getEpoch() > 1).findFirst();
      final Optional<TokenChunk> first = written.stream().map(ChunkWatcher.Seen::value)
          .filter(c -> c.getEpoch() > 1 && !c.getTokens().isEmpty()).findFirst();
      if (claim.isPresent() && first.isPresent()) {
        toClaim.add(claim.get().getEmittedAtMs() - detectedAtMs);
        backup.add(first.get().getEmittedAtMs() - claim.get().getEmittedAtMs());
        toClient.add(handedAtMs - first.get().getEmittedAtMs());
      }
    }
  }

  /** Tokens the client was handed: of which attempt, how many, when. */
  private record Handed(int epoch, String instanceId, int tokens, long atMs) {
  }

  /** What a sequence that did not finish as expected got instead, for the operator to look into. */
  private static String mismatch(final Response response, final String expected, final List<Handed> handed) {
    final String text = response.text();
    int at = 0;
    while (at < Math.min(text.length(), expected.length()) && text.charAt(at) == expected.charAt(at)) {
      at++;
    }
    final String where = text.equals(expected) ? "the text is identical"
        : "the text (" + text.length() + " chars, " + response.tokens().size() + " tokens) differs from the expected ("
            + expected.length() + " chars) at char " + at;
    final StringBuilder runs = new StringBuilder();
    String previous = null;
    int tokens = 0;
    for (final Handed chunk : handed) {
      final String attempt = chunk.instanceId() + " epoch " + chunk.epoch();
      if (previous != null && !previous.equals(attempt)) {
        runs.append(previous).append(": ").append(tokens).append(" tokens, ");
        tokens = 0;
      }
      previous = attempt;
      tokens += chunk.tokens();
    }
    runs.append(previous).append(": ").append(tokens).append(" tokens");
    return "outcome " + response.outcome() + " (" + response.last().getReason() + "); " + where
        + "; the client was handed, in order: " + runs;
  }

  /** From the last tokens of epoch 1 to the first of a later epoch, as the client was handed them. */
  private static Optional<Long> clientPause(final List<Handed> handed) {
    long lastBefore = -1;
    for (final Handed chunk : handed) {
      if (chunk.epoch() <= 1) {
        lastBefore = chunk.atMs();
      } else if (lastBefore >= 0) {
        return Optional.of(chunk.atMs() - lastBefore);
      }
    }
    return Optional.empty();
  }

  /** The stall rule a report's reason names. */
  private static String rule(final String reason) {
    if (reason.startsWith("token rate down")) {
      return "rate rule (three slow checks)";
    }
    if (reason.startsWith("no token within")) {
      return "silence (instance timeout)";
    }
    if (reason.startsWith("no first token")) {
      return "no first token";
    }
    return reason.contains("ejected") ? "owner ejected by the heatmap" : "other: " + reason;
  }

  private void print(final int cutovers, final int identical, final Map<String, List<Long>> detection,
      final List<Long> afterDetection, final AfterDetection parts, final List<Long> pause) {
    out.printf("%nCut-overs: %d stalled sequences, %d finished on a backup with byte-identical text%n%n", cutovers,
        identical);
    out.println("| measured | p50 ms | p99 ms | max ms | samples |");
    out.println("|---|---:|---:|---:|---:|");
    detection.forEach((rule, values) -> row("detection: stall to StallDetected, " + rule, values));
    row("after detection: StallDetected to first resumed token at the client", afterDetection);
    row("- of it: StallDetected to the backup's claim (decision, dispatch, worker start)", parts.toClaim);
    row("- of it: the backup's claim to its first resumed token (prefix read, engine prefill)", parts.backup);
    row("- of it: first resumed token written to handed to the client", parts.toClient);
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
