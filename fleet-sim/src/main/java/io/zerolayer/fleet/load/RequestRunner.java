package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends one request and turns whatever becomes of it, within a timeout, into an outcome. */
final class RequestRunner {

  private static final Logger LOG = LoggerFactory.getLogger(RequestRunner.class);

  private final RequestSender sender;
  private final LoadScheduler scheduler;
  private final String idPrefix;
  private final Duration timeout;

  RequestRunner(final RequestSender sender, final LoadScheduler scheduler, final String idPrefix,
      final Duration timeout) {
    this.sender = requireNonNull(sender, "sender");
    this.scheduler = requireNonNull(scheduler, "scheduler");
    this.idPrefix = requireNonNull(idPrefix, "idPrefix");
    this.timeout = requireNonNull(timeout, "timeout");
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * Sends request {@code index} of {@code source} if {@code log} still takes requests, and
   * records its outcome there. A source that cannot make the request fails the log and throws.
   *
   * @param concurrency the load's concurrency, read once the request is counted in flight
   * @return the outcome once recorded; empty when the log took no more requests
   */
  Optional<CompletableFuture<RequestOutcome>> runInto(final OutcomeLog log, final RequestSource source,
      final long index, final IntSupplier concurrency) {
    final RequestSpec spec;
    try {
      spec = source.spec(index);
    } catch (final RuntimeException e) {
      log.fail(e);
      throw e;
    }
    if (!log.begin()) {
      return Optional.empty();
    }
    return Optional.of(run(index, spec, concurrency.getAsInt()).thenApply(outcome -> {
      log.record(outcome);
      return outcome;
    }));
  }

  /** Sends request {@code index}; the future always completes normally, with the outcome. */
  CompletableFuture<RequestOutcome> run(final long index, final RequestSpec spec, final int concurrency) {
    final String id = idPrefix + "-" + index;
    final long sent = scheduler.nanoTime();
    final CompletableFuture<RequestOutcome> outcome = new CompletableFuture<>();
    final CompletableFuture<Reply> reply;
    try {
      reply = sender.send(id, spec);
    } catch (final RuntimeException e) {
      LOG.warn("Could not send {}: {}", id, e.toString());
      outcome.complete(unanswered(id, spec, concurrency, Status.FAILED, e.toString(), sent));
      return outcome;
    }
    scheduler.schedule(() -> {
      if (outcome.complete(unanswered(id, spec, concurrency, Status.TIMED_OUT,
          "no final chunk within " + timeout.toMillis() + " ms", sent))) {
        reply.cancel(false);
      }
    }, timeout);
    reply.whenComplete((answer, error) -> outcome.complete(error == null
        ? answered(id, spec, concurrency, answer, sent)
        : unanswered(id, spec, concurrency, Status.FAILED, error.toString(), sent)));
    return outcome;
  }

  private RequestOutcome answered(final String id, final RequestSpec spec, final int concurrency, final Reply reply,
      final long sent) {
    final long finished = reply.chunks().get(reply.chunks().size() - 1).atNanos();
    return new RequestOutcome(id, spec.band(), spec.promptTokens(), spec.maxOutputTokens(), concurrency,
        status(reply), reply.routing(), reply.reason(), reply.retryAfterMs(), sent, finished, reply.chunks());
  }

  private RequestOutcome unanswered(final String id, final RequestSpec spec, final int concurrency,
      final Status status, final String reason, final long sent) {
    return new RequestOutcome(id, spec.band(), spec.promptTokens(), spec.maxOutputTokens(), concurrency, status,
        null, reason, null, sent, scheduler.nanoTime(), List.of());
  }

  private static Status status(final Reply reply) {
    if (reply.routing() == RoutingOutcome.REJECTED) {
      return Status.REJECTED;
    }
    if (reply.routing() == RoutingOutcome.THROTTLED) {
      return Status.THROTTLED;
    }
    return "error".equals(reply.finishReason()) ? Status.FAILED : Status.COMPLETED;
  }
}
