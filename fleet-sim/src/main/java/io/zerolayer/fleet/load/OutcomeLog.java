package io.zerolayer.fleet.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The outcomes of one load and its requests in flight. Once closed it admits no new request,
 * and the load is finished when the last one in flight has its outcome.
 */
final class OutcomeLog {

  private final List<RequestOutcome> outcomes = new ArrayList<>();
  private final CompletableFuture<List<RequestOutcome>> finished = new CompletableFuture<>();
  private int inFlight;
  private boolean closed;

  /** Admits a request; false once the log is closed. */
  synchronized boolean begin() {
    if (closed) {
      return false;
    }
    inFlight++;
    return true;
  }

  /** Records the outcome of an admitted request. */
  synchronized void record(final RequestOutcome outcome) {
    outcomes.add(outcome);
    inFlight--;
    finishIfDone();
  }

  /** Admits no more requests. */
  synchronized void close() {
    closed = true;
    finishIfDone();
  }

  /** Ends the load with {@code cause}: something other than a request went wrong. */
  synchronized void fail(final Throwable cause) {
    closed = true;
    finished.completeExceptionally(cause);
  }

  synchronized boolean isClosed() {
    return closed;
  }

  synchronized int inFlight() {
    return inFlight;
  }

  /** The outcomes so far, in the order they ended. */
  synchronized List<RequestOutcome> outcomes() {
    return List.copyOf(outcomes);
  }

  CompletableFuture<List<RequestOutcome>> finished() {
    return finished;
  }

  private void finishIfDone() {
    if (closed && inFlight == 0) {
      finished.complete(List.copyOf(outcomes));
    }
  }
}
