package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.ResponseChunk;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Admission at the gateway: how many answers it keeps open at once, adapted to how late the layer
 * carries them. An answer is late when a worker had it more than the lag target after it reached
 * the gateway (the wait before the engine: the ingress topic, a router, the dispatch), when one of
 * its chunks reached the gateway more than the lag target after it was emitted upstream (by the
 * worker, or by the router or token-buffer for what they write), or when an end with no new token
 * came that long after the latest token before it. An engine's own pace, however slow, never
 * counts; only the layer's does. The limit starts at its most; each late answer cuts it by a
 * tenth, and each answer on time while at least half of it is in use raises it by one (AIMD, from
 * Netflix's concurrency-limits). A request over the limit is answered at once as overloaded, with
 * a retry time, instead of waiting behind a backlog that it would only make longer: past its
 * capacity the layer serves what it can on time and refuses the rest, rather than serving
 * everything late.
 */
public final class Door {

  private static final double BACKOFF_RATIO = 0.9;
  /** Only late answers cut the limit, never a long one: an answer may stream for minutes. */
  private static final long NO_TIMEOUT_DAYS = 365;

  private final SimpleLimiter<Void> limiter;
  private final long lagTargetMs;
  private final long retryAfterMs;
  private final LongSupplier clockMs;
  private final Counter refused;
  private final Counter late;

  /**
   * @param lagTarget how late a worker may have an answer, or a chunk reach the gateway, before the
   *     answer counts as late
   * @param limits the open answers allowed at least and at most
   * @param retryAfter what a refused request is told to wait
   * @param clockMs the wall clock the chunks' emit times are on
   */
  public Door(final Duration lagTarget, final Limits limits, final Duration retryAfter, final LongSupplier clockMs,
      final MeterRegistry meters) {
    this.lagTargetMs = requireNonNull(lagTarget, "lagTarget").toMillis();
    this.retryAfterMs = requireNonNull(retryAfter, "retryAfter").toMillis();
    this.clockMs = requireNonNull(clockMs, "clockMs");
    limiter = SimpleLimiter.newBuilder().named("gateway")
        .limit(AIMDLimit.newBuilder().initialLimit(limits.max()).minLimit(limits.min()).maxLimit(limits.max())
            .backoffRatio(BACKOFF_RATIO).timeout(NO_TIMEOUT_DAYS, TimeUnit.DAYS).build())
        .build();
    Gauge.builder("zerolayer.gateway.open.limit", limiter, SimpleLimiter::getLimit)
        .description("How many answers the gateway keeps open at once now").register(meters);
    Gauge.builder("zerolayer.gateway.open", limiter, SimpleLimiter::getInflight)
        .description("Answers open now").register(meters);
    refused = Counter.builder("zerolayer.gateway.refused").description("Requests refused as overloaded at the door")
        .register(meters);
    late = Counter.builder("zerolayer.gateway.late.answers")
        .description("Answers a worker had, or whose chunk reached the gateway, later than the lag target")
        .register(meters);
  }

  /** The open answers allowed at least and at most (where the limit starts). */
  public record Limits(int min, int max) {
    public Limits {
      if (min < 1 || max < min) {
        throw new IllegalArgumentException("limits must satisfy 1 <= min <= max, not " + min + ", " + max);
      }
    }
  }

  /** A pass for one answer, or empty when the gateway is full (answer with {@link #refusal()}). */
  Optional<Pass> enter() {
    final Optional<Pass> pass = limiter.acquire(null).map(Pass::new);
    if (pass.isEmpty()) {
      refused.increment();
    }
    return pass;
  }

  /** Why a request was refused at the door, with when to try again. */
  Failure refusal() {
    return new Failure(Failure.Kind.OVERLOADED, "the gateway is at its limit of " + limiter.getLimit()
        + " open answers (a limit that falls while the layer carries answers later than " + lagTargetMs
        + " ms): try again in " + retryAfterMs + " ms", null, retryAfterMs);
  }

  /**
   * One admitted answer: notes how late its chunks come, from the thread that reads them, and gives
   * its place back once, when the HTTP thread is done with it.
   */
  final class Pass implements AutoCloseable {

    private final Limiter.Listener listener;
    private final long enteredAtMs = clockMs.getAsLong();
    private final AtomicLong worstLagMs = new AtomicLong(-1);
    private final AtomicLong latestEmitMs = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean ended;

    private Pass(final Limiter.Listener listener) {
      this.listener = listener;
    }

    /** Notes when a worker had the request (its first chunk's emit time). */
    void started(final long startedAtMs) {
      if (startedAtMs > 0) {
        worstLagMs.accumulateAndGet(startedAtMs - enteredAtMs, Math::max);
      }
    }

    /** Notes a chunk of the answer as it reaches the gateway. */
    void arrived(final ResponseChunk chunk) {
      final long earlier = latestEmitMs.get();
      // An end with no new token is written once token-buffer has read the stream: late by how long
      // it kept the answer open after the last token.
      final boolean bareEnd = chunk.getLast() && chunk.getTokens().isEmpty() && earlier > 0;
      final long since = bareEnd ? earlier : chunk.getEmittedAtMs();
      if (since > 0) {
        worstLagMs.accumulateAndGet(clockMs.getAsLong() - since, Math::max);
      }
      latestEmitMs.accumulateAndGet(chunk.getEmittedAtMs(), Math::max);
      if (chunk.getLast()) {
        ended = true;
      }
    }

    /**
     * Gives the place back: an answer with a late chunk lowers the limit, one that ended on time
     * may raise it, and one that ended otherwise on time (a timeout, a client gone) says nothing.
     */
    @Override
    public void close() {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
      if (worstLagMs.get() > lagTargetMs) {
        late.increment();
        listener.onDropped();
      } else if (ended) {
        listener.onSuccess();
      } else {
        listener.onIgnore();
      }
    }
  }
}
