package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.runtime.ClusterSettings;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Sends a load's requests to the pipeline as an application does: through the contract's
 * {@link InferenceClient} (the ingress topic, and the ordered, checked response stream), with a
 * second reader of the response topic noting when each chunk arrived.
 */
public final class KafkaRequestSender implements RequestSender, AutoCloseable {

  private final String tenantId;
  private final String apiKey;
  private final ContractSerdes serdes;
  private final ChunkTimes times;
  private final InferenceClient client;

  /**
   * Connects, and returns once both readers stand at the end of the response topic.
   *
   * @param nanoClock the load's clock ({@link LoadScheduler#nanoTime()}), for chunk arrival times
   */
  public KafkaRequestSender(final ClusterSettings cluster, final String tenantId, final String apiKey,
      final LongSupplier nanoClock) throws InterruptedException {
    requireNonNull(cluster, "cluster");
    this.tenantId = requireNonNull(tenantId, "tenantId");
    this.apiKey = requireNonNull(apiKey, "apiKey");
    requireNonNull(nanoClock, "nanoClock");
    serdes = new ContractSerdes(cluster.serdes());
    try {
      times = new ChunkTimes(cluster, serdes, nanoClock);
    } catch (final InterruptedException | RuntimeException e) {
      serdes.close();
      throw e;
    }
    try {
      client = new InferenceClient(cluster, serdes);
    } catch (final RuntimeException e) {
      times.close();
      serdes.close();
      throw e;
    }
  }

  @Override
  public CompletableFuture<Reply> send(final String sequenceId, final RequestSpec spec) {
    final CompletableFuture<List<ChunkArrival>> chunks = times.ledger().watch(sequenceId);
    final CompletableFuture<Response> response = client.submit(request(sequenceId, spec));
    final CompletableFuture<Reply> reply = response.thenCombine(chunks, KafkaRequestSender::reply);
    reply.whenComplete((answer, error) -> {
      if (error != null) {
        times.ledger().forget(sequenceId);
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
        .setSeed(spec.seed())
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }

  private static Reply reply(final Response response, final List<ChunkArrival> chunks) {
    final ResponseChunk last = response.last();
    return new Reply(chunks, last.getOutcome(), last.getFinishReason(), last.getReason(), last.getRetryAfterMs());
  }

  @Override
  public void close() throws InterruptedException {
    try {
      client.close();
      times.close();
    } finally {
      serdes.close();
    }
  }
}
