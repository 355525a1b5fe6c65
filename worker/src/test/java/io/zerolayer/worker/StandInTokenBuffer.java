package io.zerolayer.worker;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.contract.sequence.SequenceView;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * token-buffer's {@code GET /v1/sequences/{id}} for tests, with the same JSON and status codes,
 * for callers bearing {@link #TOKEN}.
 */
public final class StandInTokenBuffer implements AutoCloseable {

  /** The query token it asks of callers. */
  public static final String TOKEN = "query-token";

  public final AtomicInteger calls = new AtomicInteger();
  private final Map<String, SequenceView> sequences = new ConcurrentHashMap<>();
  private final AtomicInteger unavailableAnswers = new AtomicInteger();
  private final Javalin http;

  public StandInTokenBuffer() {
    http = Javalin.create(config -> config.showJavalinBanner = false);
    http.get("/v1/sequences/{id}", this::get);
    http.start("127.0.0.1", 0);
  }

  public String url() {
    return "http://127.0.0.1:" + http.port();
  }

  /** Holds a streaming sequence with these accepted tokens. */
  public void holds(final String sequenceId, final List<String> tokens) {
    sequences.put(sequenceId, new SequenceView(sequenceId, 2, "gpu-backup", "STREAMING", "CUTOVER",
        List.copyOf(tokens), tokens.size(), 0, 5, "tenant-0"));
  }

  /** Answers the next {@code count} lookups with 503, as while the store is rebalancing. */
  public void rebalancingFor(final int count) {
    unavailableAnswers.set(count);
  }

  private void get(final Context ctx) {
    calls.incrementAndGet();
    if (!("Bearer " + TOKEN).equals(ctx.header("Authorization"))) {
      ctx.status(401).json(Map.of("error", "send Authorization: Bearer <tokenbuffer.query.token>"));
      return;
    }
    if (unavailableAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      ctx.header("Retry-After", "1").status(503).json(Map.of("error", "the sequence store is being assigned"));
      return;
    }
    final String id = ctx.pathParam("id");
    final SequenceView view = sequences.get(id);
    if (view == null) {
      ctx.status(404).json(Map.of("error", "no sequence " + id));
    } else {
      ctx.json(view);
    }
  }

  @Override
  public void close() {
    http.stop();
  }
}
