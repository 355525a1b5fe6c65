package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one run writes to its sequence's token stream, each chunk at its index: its claim, its
 * tokens, and at most one last chunk, after which it writes nothing. Thread-safe: the engine's
 * thread emits, the worker's poll thread may end the stream, its heartbeat thread says the run
 * is still queued.
 */
final class AttemptStream {

  private final AttemptRecords records;
  private final WorkerOutput output;
  private final Consumer<Exception> failed;
  /** A resumed attempt with a prefix offset learns its place in the stream only from its catch-up. */
  private final boolean catchesUp;
  private int resumedFrom;
  private int nextIndex;
  private long firstTokenMs;
  /** The run's place in the stream is known: it claimed, after its catch-up if it needed one. */
  private boolean placed;
  private boolean ended;

  /**
   * @param failed hears of a chunk that could not be sent
   */
  AttemptStream(final DispatchTask task, final AttemptRecords records, final WorkerOutput output,
      final Consumer<Exception> failed) {
    this.records = requireNonNull(records, "records");
    this.output = requireNonNull(output, "output");
    this.failed = requireNonNull(failed, "failed");
    this.catchesUp = task.getPrefixOffset() >= 0;
    this.resumedFrom = task.getResumeFromIndex();
    this.nextIndex = task.getResumeFromIndex();
  }

  /** Claims the stream where the task says it resumes, once; for a run that needs no catch-up. */
  synchronized void claim() {
    if (!placed) {
      output.tokens(records.claim(nextIndex), failed);
      placed = true;
    }
  }

  /** The run's claim caught up with the stream: it continues at {@code index}. */
  synchronized void caughtUp(final int index) {
    resumedFrom = index;
    nextIndex = index;
    placed = true;
  }

  /**
   * Ends the stream now if the run's place in it is known or needs no catch-up (claiming it
   * first); otherwise leaves the end to whoever calls {@link #end} after the catch-up.
   */
  synchronized void endIfPlaceable(final String finishReason) {
    if (!catchesUp) {
      claim();
    }
    if (placed) {
      end(finishReason);
    }
  }

  /** Sends the last chunk unless it went out already; whether this call sent it. */
  synchronized boolean end(final String finishReason) {
    if (ended) {
      return false;
    }
    ended = true;
    output.tokens(records.chunk(nextIndex, List.of(), true, finishReason), failed);
    return true;
  }

  synchronized boolean ended() {
    return ended;
  }

  /** Sends the next tokens, unless the stream ended. */
  synchronized void emit(final List<String> tokens) {
    if (ended || tokens.isEmpty()) {
      return;
    }
    if (firstTokenMs == 0) {
      firstTokenMs = System.currentTimeMillis();
    }
    output.tokens(records.chunk(nextIndex, tokens, false, null), failed);
    nextIndex += tokens.size();
  }

  /** Says the run is alive while it waits to begin. */
  synchronized void heartbeat() {
    if (!ended) {
      output.tokens(records.claim(nextIndex), failed);
    }
  }

  /** Reports that the attempt failed; the report is not part of the stream. */
  synchronized void fail(final String why) {
    output.tokens(records.failure(nextIndex, why), failed);
  }

  synchronized Completion completion(final CompletionOutcome outcome, final long startedMs) {
    return records.completion(outcome, nextIndex - resumedFrom, startedMs, firstTokenMs);
  }
}
