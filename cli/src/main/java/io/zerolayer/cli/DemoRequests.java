package io.zerolayer.cli;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Sends a few requests through the pipeline and prints how each was routed and answered. */
final class DemoRequests {

  /** The demo's one tenant and its API key. */
  static final String TENANT = "demo";
  static final String API_KEY = "demo-key";
  static final TenantDirectory TENANTS = TenantDirectory.of(List.of(
      new Tenant(TENANT, Tenant.hashKey(API_KEY), 100, 100_000, 2)));

  private static final List<String> PROMPTS = List.of(
      "Summarise the plot of Hamlet in two sentences.",
      "Write a haiku about Kafka partitions.",
      "Explain continuous batching to a new engineer.",
      "What is a KV cache, and why does it fragment?");

  private final ClusterSettings cluster;
  private final PrintStream out;

  DemoRequests(final ClusterSettings cluster, final PrintStream out) {
    this.cluster = cluster;
    this.out = out;
  }

  void run(final int count) throws Exception {
    out.println("==> Sending " + count + " requests to the ingress topic");
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        InferenceClient client = new InferenceClient(cluster, serdes)) {
      final List<CompletableFuture<Response>> responses = new ArrayList<>();
      final long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        responses.add(client.submit(request(i)));
      }
      out.printf("%-12s %-10s %-8s %8s  %s%n", "sequence", "outcome", "instance", "done ms", "first tokens");
      for (final CompletableFuture<Response> future : responses) {
        final Response response = future.get(60, TimeUnit.SECONDS);
        final String instance = response.last().getInstanceId();
        out.printf("%-12s %-10s %-8s %8d  %s%n", response.sequenceId(), response.outcome(),
            instance == null ? "-" : instance, (System.nanoTime() - start) / 1_000_000, summary(response));
      }
    }
  }

  private static String summary(final Response response) {
    if (response.tokens().isEmpty()) {
      return "(" + response.last().getReason() + ")";
    }
    return String.join("", response.tokens().subList(0, Math.min(8, response.tokens().size()))).strip() + " ...";
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder()
        .setSequenceId("demo-" + i + "-" + UUID.randomUUID().toString().substring(0, 4))
        .setTenantId(TENANT)
        .setApiKey(API_KEY)
        .setPrompt(PROMPTS.get(i % PROMPTS.size()))
        .setMaxOutputTokens(48)
        .setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }
}
