package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * An app's HTTP server: {@code GET /metrics} in the Prometheus text format, {@code GET /health}
 * (the process answers), {@code GET /ready} (the app does its work: 200, or 503 with what it
 * waits for), and whatever routes the app adds (interactive queries, push endpoints).
 */
public final class MetricsServer implements AutoCloseable {

  /** The content type of a page in Prometheus' text format. */
  public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Javalin http;
  private volatile Readiness readiness = new Readiness(() -> true, "");

  /** What {@code GET /ready} asks, and what it answers while the check fails. */
  private record Readiness(BooleanSupplier check, String waitingFor) {
  }

  /**
   * @param app the app's name, a common tag of every meter
   * @param routes adds the app's own routes
   */
  public MetricsServer(final String app, final Consumer<Javalin> routes) {
    requireNonNull(app, "app");
    registry.config().commonTags("app", app).meterFilter(new StateStoreTags());
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    http = Javalin.create(config -> config.showJavalinBanner = false);
    http.get("/metrics", ctx -> ctx.contentType(PROMETHEUS_TEXT).result(registry.scrape()));
    http.get("/health", ctx -> ctx.result("ok"));
    http.get("/ready", ctx -> {
      final Readiness now = readiness;
      final boolean isReady = now.check().getAsBoolean();
      ctx.status(isReady ? 200 : 503).result(isReady ? "ready" : now.waitingFor());
    });
    routes.accept(http);
  }

  /** Adds routes, before the server starts, for an app that builds them once its meters exist. */
  public MetricsServer routes(final Consumer<Javalin> routes) {
    routes.accept(http);
    return this;
  }

  /** Starts serving on 127.0.0.1 or all interfaces; port 0 picks a free one. */
  public MetricsServer start(final String host, final int port) {
    http.start(host, port);
    return this;
  }

  /**
   * Makes {@code GET /ready} follow {@code check}; an app without one is ready once it serves.
   *
   * @param waitingFor the answer while not ready, for example "reading the heatmap"
   */
  public MetricsServer readyWhen(final BooleanSupplier check, final String waitingFor) {
    readiness = new Readiness(requireNonNull(check, "check"), requireNonNull(waitingFor, "waitingFor"));
    return this;
  }

  /** Answers 503 "starting" on {@code GET /ready} until the app sets its check, once it has built it. */
  public MetricsServer notReadyYet() {
    return readyWhen(() -> false, "starting");
  }

  /** The port it listens on, once started. */
  public int port() {
    return http.port();
  }

  /** Where the app records its meters. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    http.stop();
    registry.close();
  }
}
