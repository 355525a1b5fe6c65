package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Sends a load's requests to the pipeline as an application does: through the contract's
 * {@link InferenceClient} (the ingress topic, and the ordered, checked response stream), noting
 * when each chunk arrived as the client reads it.
 */
public final class KafkaRequestSender implements RequestSender, AutoCloseable {

  private final String tenantId;
  private final String apiKey;
  private final ContractSerdes serdes;
  private final ChunkLedger ledger = new ChunkLedger();
  private final InferenceClient client;

  /**
   * Connects, and returns once the client stands at the end of the response topic.
   *
   * @param nanoClock the load's clock ({@link LoadScheduler#nanoTime()}), for chunk arrival times
   */
  public KafkaRequestSender(final ClusterSettings cluster, final String tenantId, final String apiKey,
      final LongSupplier nanoClock) {
    requireNonNull(cluster, "cluster");
    this.tenantId = requireNonNull(tenantId, "tenantId");
    this.apiKey = requireNonNull(apiKey, "apiKey");
    requireNonNull(nanoClock, "nanoClock");
    serdes = new ContractSerdes(cluster.serdes());
    try {
      client = new InferenceClient(cluster, serdes, chunk -> ledger.accept(chunk, nanoClock.getAsLong()));
    } catch (final RuntimeException e) {
      serdes.close();
      throw e;
    }
  }

  @Override
  public CompletableFuture<Reply> send(final String sequenceId, final RequestSpec spec) {
    final CompletableFuture<List<ChunkArrival>> chunks = ledger.watch(sequenceId);
    final CompletableFuture<Response> response = client.submit(request(sequenceId, spec));
    final CompletableFuture<Reply> reply = response.thenCombine(chunks, KafkaRequestSender::reply);
    reply.whenComplete((answer, error) -> {
      if (error != null) {
        ledger.forget(sequenceId);
      }
    });
    return reply;
  }

  private InferenceRequest request(final String sequenceId, final RequestSpec spec) {
    return InferenceRequest.newBuilder()
        .setSequenceId(sequenceId)
        .setTenantId(tenantId)
        .setApiKey(apiKey)
        .setPrompt(spec.prompt())
        .setMaxOutputTokens(spec.maxOutputTokens())
        .setIgnoreEos(spec.ignoreEos())
        .setSeed(spec.seed())
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }

  private static Reply reply(final Response response, final List<ChunkArrival> chunks) {
    final ResponseChunk last = response.last();
    return new Reply(chunks, last.getOutcome(), last.getFinishReason(), last.getReason(), last.getRetryAfterMs());
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      serdes.close();
    }
  }
}
