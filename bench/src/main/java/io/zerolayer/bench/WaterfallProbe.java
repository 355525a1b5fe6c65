package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * Watches every hop of the requests it sends: the ingress, decision, dispatch and token topics
 * and the completions, read as their consumers read them, and the client's own response chunks.
 */
final class WaterfallProbe implements AutoCloseable {

  /** A response chunk as the client read it. */
  private record Read(int startIndex, int tokens, long atMs) {
  }

  private final ChunkWatcher<InferenceRequest> requests;
  private final ChunkWatcher<RoutingDecision> decisions;
  private final ChunkWatcher<DispatchTask> dispatches;
  private final ChunkWatcher<TokenChunk> tokens;
  private final ChunkWatcher<Completion> completions;
  private final Map<String, List<Read>> reads = new ConcurrentHashMap<>();
  private final Map<String, Long> sentMs = new ConcurrentHashMap<>();
  private final InferenceClient client;

  WaterfallProbe(final ClusterSettings cluster, final ContractSerdes serdes) throws InterruptedException {
    requireNonNull(cluster, "cluster");
    requests = watch(cluster, serdes, Topics.REQUESTS, InferenceRequest::getSequenceId, true);
    decisions = watch(cluster, serdes, Topics.DECISIONS, RoutingDecision::getSequenceId, true);
    // Workers take tasks as the router writes them, before its transaction commits.
    dispatches = watch(cluster, serdes, Topics.DISPATCH, DispatchTask::getSequenceId, false);
    tokens = watch(cluster, serdes, Topics.TOKENS, TokenChunk::getSequenceId, true);
    completions = watch(cluster, serdes, Topics.COMPLETIONS, Completion::getSequenceId, true);
    client = new InferenceClient(cluster, serdes, this::read);
  }

  private static <V extends SpecificRecord> ChunkWatcher<V> watch(final ClusterSettings cluster,
      final ContractSerdes serdes, final Topic<String, V> topic, final Function<V, String> sequenceOf,
      final boolean committedOnly) throws InterruptedException {
    return new ChunkWatcher<>(cluster, cluster.catalogue().name(topic), serdes.value(topic).deserializer(),
        sequenceOf, committedOnly);
  }

  private void read(final ResponseChunk chunk) {
    final long now = System.currentTimeMillis();
    if (!chunk.getTokens().isEmpty()) {
      reads.computeIfAbsent(chunk.getSequenceId(), k -> new ArrayList<>())
          .add(new Read(chunk.getStartIndex(), chunk.getTokens().size(), now));
    }
  }

  /** Sends a request; the future completes with its whole response. */
  CompletableFuture<Response> submit(final InferenceRequest request) {
    sentMs.put(request.getSequenceId(), System.currentTimeMillis());
    return client.submit(request);
  }

  /** Every hop of a sequence, or empty when one of them was not seen (it was not dispatched, say). */
  Optional<HopTimes> hops(final String sequenceId) {
    final List<Read> read = reads.getOrDefault(sequenceId, List.of());
    final List<ChunkWatcher.Seen<TokenChunk>> chunks = tokens.of(sequenceId).stream()
        .filter(seen -> !seen.value().getTokens().isEmpty()).toList();
    final var request = requests.of(sequenceId);
    final var decision = decisions.of(sequenceId);
    final var dispatch = dispatches.of(sequenceId);
    final var completion = completions.of(sequenceId);
    if (read.isEmpty() || chunks.isEmpty() || request.isEmpty() || decision.isEmpty() || dispatch.isEmpty()
        || completion.isEmpty() || !sentMs.containsKey(sequenceId)) {
      return Optional.empty();
    }
    final Completion done = completion.get(0).value();
    final List<HopTimes.ChunkDelay> later = new ArrayList<>();
    for (final Read chunk : read.subList(1, read.size())) {
      emittedMs(chunks, chunk.startIndex()).ifPresent(
          emitted -> later.add(new HopTimes.ChunkDelay(chunk.startIndex(), chunk.atMs() - emitted)));
    }
    return Optional.of(new HopTimes(sentMs.get(sequenceId), request.get(0).readAtMs(),
        decision.get(0).value().getDecidedAtMs(), dispatch.get(0).readAtMs(),
        done.getFinishedAtMs() - Math.round(done.getTotalMs()), chunks.get(0).value().getEmittedAtMs(),
        chunks.get(0).readAtMs(), read.get(0).atMs(), later));
  }

  /** When the engine emitted the token at {@code index}: the earliest chunk that holds it. */
  private static Optional<Long> emittedMs(final List<ChunkWatcher.Seen<TokenChunk>> chunks, final int index) {
    return chunks.stream().map(ChunkWatcher.Seen::value)
        .filter(chunk -> chunk.getStartIndex() <= index && index < chunk.getStartIndex() + chunk.getTokens().size())
        .map(TokenChunk::getEmittedAtMs).min(Long::compare);
  }

  @Override
  public void close() throws InterruptedException {
    client.close();
    for (final ChunkWatcher<?> watcher : List.of(requests, decisions, dispatches, tokens, completions)) {
      watcher.close();
    }
  }
}
