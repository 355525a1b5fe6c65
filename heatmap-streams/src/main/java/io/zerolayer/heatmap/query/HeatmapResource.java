package io.zerolayer.heatmap.query;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.runtime.QueryForwarder;
import java.io.IOException;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The heatmap's interactive queries over HTTP, read-only, JSON:
 * {@code GET /v1/heatmap} (every row), {@code GET /v1/instances/{id}} (one instance's row and
 * state machine), {@code GET /v1/instances/{id}/history?from=&to=&windows=short|history}
 * (epoch ms; defaults: the last 10 minutes of history windows) and {@code GET /v1/zones}.
 * An instance held by another app instance is answered by it; 503 while stores move.
 */
public final class HeatmapResource {

  private static final long DEFAULT_HISTORY_MS = 600_000;
  /** Longest range one query may ask for: a day of history windows, ten minutes of short ones. */
  private static final long MAX_HISTORY_SPAN_MS = 86_400_000;
  private static final long MAX_SHORT_SPAN_MS = 600_000;

  private final Supplier<HeatmapQueries> queries;
  private final QueryForwarder forwarder = new QueryForwarder();

  /**
   * @param queries the queries, or null until the app runs
   */
  public HeatmapResource(final Supplier<HeatmapQueries> queries) {
    this.queries = requireNonNull(queries, "queries");
  }

  /** Adds the routes. */
  public void register(final Javalin app) {
    app.get("/v1/heatmap", ctx -> answer(ctx, HeatmapQueries::heatmap));
    app.get("/v1/zones", ctx -> answer(ctx, HeatmapQueries::zones));
    app.get("/v1/instances/{id}", ctx -> answer(ctx, q -> q.instance(ctx.pathParam("id"))));
    app.get("/v1/instances/{id}/history", this::history);
  }

  private void history(final Context ctx) throws IOException, InterruptedException {
    final long now = System.currentTimeMillis();
    final long to;
    final long from;
    try {
      to = ctx.queryParamAsClass("to", Long.class).getOrDefault(now);
      from = ctx.queryParamAsClass("from", Long.class).getOrDefault(to - DEFAULT_HISTORY_MS);
    } catch (final RuntimeException e) {
      ctx.status(400).json(Map.of("error", "from and to must be epoch milliseconds: " + e.getMessage()));
      return;
    }
    final String windows = ctx.queryParamAsClass("windows", String.class).getOrDefault("history");
    if (!windows.equals("short") && !windows.equals("history")) {
      ctx.status(400).json(Map.of("error", "windows must be short or history, was " + windows));
      return;
    }
    final long maxSpanMs = windows.equals("short") ? MAX_SHORT_SPAN_MS : MAX_HISTORY_SPAN_MS;
    if (from < 0 || from > to || to - from > maxSpanMs) {
      ctx.status(400).json(Map.of("error", "need 0 <= from <= to and to - from <= " + maxSpanMs
          + " ms for " + windows + " windows; got from " + from + ", to " + to));
      return;
    }
    answer(ctx, q -> q.history(ctx.pathParam("id"), from, to, windows.equals("short")));
  }

  private void answer(final Context ctx, final Function<HeatmapQueries, HeatmapQueries.Lookup<?>> question)
      throws IOException, InterruptedException {
    final HeatmapQueries current = queries.get();
    if (current == null) {
      QueryForwarder.unavailable(ctx, "heatmap-streams is starting");
      return;
    }
    final HeatmapQueries.Lookup<?> lookup = question.apply(current);
    if (lookup instanceof HeatmapQueries.Found<?> found) {
      ctx.json(found.value());
    } else if (lookup instanceof HeatmapQueries.Elsewhere<?> other) {
      forwarder.forward(ctx, other.host(), other.port());
    } else if (lookup instanceof HeatmapQueries.Unavailable<?> why) {
      QueryForwarder.unavailable(ctx, why.reason());
    } else {
      ctx.status(404).json(Map.of("error", "no such instance: " + ctx.pathParamMap().getOrDefault("id", "")));
    }
  }
}
