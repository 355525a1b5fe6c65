package io.zerolayer.telemetry;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.telemetry.internal.TelemetryJsonReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code POST /v1/telemetry}: a worker pushes one sample as a JSON object with every
 * {@link InstanceTelemetry} field (camelCase), with {@code Authorization: Bearer <its push token>}.
 * Answers 202 when the sample is valid and handed on; otherwise, with
 * {@code {"problems": [...]}}: 401 without a known token, 403 for a sample of an instance the
 * token may not speak for (or when no pusher is configured), and 400 naming every missing,
 * unknown, mistyped or impossible field.
 */
public final class TelemetryPushEndpoint {

  public static final String PATH = "/v1/telemetry";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final TelemetryValidator validator;
  private final PushCredentials credentials;
  private final Consumer<InstanceTelemetry> sink;
  private final LongSupplier clockMs;
  private final Runnable refused;

  /**
   * @param sink receives each accepted sample (the {@link TelemetryPublisher} in production)
   * @param clockMs the time samples are checked against, epoch ms
   */
  public TelemetryPushEndpoint(final TelemetryValidator validator, final PushCredentials credentials,
      final Consumer<InstanceTelemetry> sink, final LongSupplier clockMs) {
    this(validator, credentials, sink, clockMs, () -> { });
  }

  /**
   * @param refused called for each sample refused, to count them
   */
  public TelemetryPushEndpoint(final TelemetryValidator validator, final PushCredentials credentials,
      final Consumer<InstanceTelemetry> sink, final LongSupplier clockMs, final Runnable refused) {
    this.validator = requireNonNull(validator, "validator");
    this.credentials = requireNonNull(credentials, "credentials");
    this.sink = requireNonNull(sink, "sink");
    this.clockMs = requireNonNull(clockMs, "clockMs");
    this.refused = requireNonNull(refused, "refused");
  }

  /** Adds the route; fits {@code new MetricsServer(app, endpoint::register)}. */
  public void register(final Javalin http) {
    http.post(PATH, this::handle);
  }

  private void handle(final Context ctx) throws JsonProcessingException {
    if (credentials.none()) {
      refuse(ctx, HttpStatus.FORBIDDEN, "pushing telemetry is off here: list the pushers' tokens and instances in"
          + " the file named by telemetry.push.credentials.file");
      return;
    }
    final String authorization = ctx.header("Authorization");
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      refuse(ctx, HttpStatus.UNAUTHORIZED, "no push token: send Authorization: Bearer <the instance's push token>");
      return;
    }
    final Optional<Set<String>> allowed = credentials.instancesOf(authorization.substring("Bearer ".length()).strip());
    if (allowed.isEmpty()) {
      refuse(ctx, HttpStatus.UNAUTHORIZED, "unknown push token");
      return;
    }
    final JsonNode body;
    try {
      body = JSON.readTree(ctx.body());
    } catch (final JsonProcessingException e) {
      refused.run();
      reply(ctx, HttpStatus.BAD_REQUEST, Map.of("problems", List.of("body is not JSON: " + e.getOriginalMessage())));
      return;
    }
    final long nowMs = clockMs.getAsLong();
    final TelemetryJsonReader.Result read = TelemetryJsonReader.read(body, nowMs);
    final List<String> problems = new ArrayList<>(read.problems());
    problems.addAll(validator.problems(read.telemetry(), nowMs));
    if (!problems.isEmpty()) {
      refused.run();
      reply(ctx, HttpStatus.BAD_REQUEST, Map.of("problems", problems));
      return;
    }
    if (!allowed.get().contains(read.telemetry().getInstanceId())) {
      refuse(ctx, HttpStatus.FORBIDDEN, "this push token may send samples of " + String.join(", ", allowed.get())
          + " only, not of " + read.telemetry().getInstanceId());
      return;
    }
    sink.accept(read.telemetry());
    reply(ctx, HttpStatus.ACCEPTED, Map.of("accepted", read.telemetry().getInstanceId()));
  }

  private void refuse(final Context ctx, final HttpStatus status, final String problem)
      throws JsonProcessingException {
    refused.run();
    reply(ctx, status, Map.of("problems", List.of(problem)));
  }

  private static void reply(final Context ctx, final HttpStatus status, final Object body)
      throws JsonProcessingException {
    ctx.status(status).contentType("application/json").result(JSON.writeValueAsString(body));
  }
}
