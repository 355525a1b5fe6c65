package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What one run writes to its sequence's token stream, each chunk at its index: its claim, its
 * tokens, and at most one last chunk, after which it writes nothing. Thread-safe: the engine's
 * thread emits, the worker's poll thread may end the stream, its heartbeat thread says the run
 * is still queued.
 *
 * <p>While a chunk of tokens waits for the broker's answer, the tokens the engine emits meanwhile
 * wait too, and go out together in one chunk when it comes, or with the first token emitted
 * {@link #MAX_HOLD_MS} or more after the first of them. An engine that streams one token per event
 * (an OpenAI-compatible server) thus costs one record per token only while the broker answers
 * quickly; when it answers slowly, each record carries more tokens instead of the backlog growing,
 * and a slow answer still does not hold a stream's tokens back for longer than the hold (and one
 * gap between the engine's tokens): token-buffer would take a longer gap for a stalled engine.
 */
final class AttemptStream {

  /** The longest tokens wait for the answer to an earlier chunk before they go out anyway. */
  static final long MAX_HOLD_MS = 50;

  private final AttemptRecords records;
  private final WorkerOutput output;
  private final Consumer<Exception> failed;
  private final LongSupplier clock;
  /** Tokens emitted while earlier chunks wait for the broker, next in the stream. */
  private final List<String> waiting = new ArrayList<>();
  /** A resumed attempt with a prefix offset learns its place in the stream only from its catch-up. */
  private final boolean catchesUp;
  private int resumedFrom;
  /** The index of the next token sent: the tokens waiting come first. */
  private int nextIndex;
  /** When the engine emitted the first of the waiting tokens: the chunk's emit time. */
  private long waitingSinceMs;
  /** Chunks of tokens sent that the broker has not answered yet. */
  private int inFlight;
  private long firstTokenMs;
  /** Tokens of the engine's first emission, whose decode the time to the first token includes. */
  private int firstChunkTokens;
  /** The run's place in the stream is known: it claimed, after its catch-up if it needed one. */
  private boolean placed;
  private boolean ended;

  /**
   * @param failed hears of a chunk that could not be sent
   */
  AttemptStream(final DispatchTask task, final AttemptRecords records, final WorkerOutput output,
      final Consumer<Exception> failed) {
    this(task, records, output, failed, System::currentTimeMillis);
  }

  /** @param clock the wall clock, in ms */
  AttemptStream(final DispatchTask task, final AttemptRecords records, final WorkerOutput output,
      final Consumer<Exception> failed, final LongSupplier clock) {
    this.clock = requireNonNull(clock, "clock");
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
    sendWaiting();
    output.tokens(records.chunk(nextIndex, List.of(), true, finishReason), failed);
    return true;
  }

  synchronized boolean ended() {
    return ended;
  }

  /** The tokens the stream may still take, the task's output limit less its next index; empty once it ended. */
  synchronized OptionalInt tokensToLimit(final int maxOutputTokens) {
    return ended ? OptionalInt.empty() : OptionalInt.of(Math.max(0, maxOutputTokens - nextIndex));
  }

  /** Sends the next tokens, unless the stream ended. */
  synchronized void emit(final List<String> tokens) {
    if (ended || tokens.isEmpty()) {
      return;
    }
    final long nowMs = clock.getAsLong();
    if (firstTokenMs == 0) {
      firstTokenMs = nowMs;
      firstChunkTokens = tokens.size();
    }
    if (waiting.isEmpty()) {
      waitingSinceMs = nowMs;
    }
    waiting.addAll(tokens);
    if (inFlight == 0 || nowMs - waitingSinceMs >= MAX_HOLD_MS) {
      sendWaiting();
    }
  }

  /** The broker answered a chunk: once none is in flight, the tokens that waited go out. */
  private synchronized void answered() {
    inFlight--;
    if (inFlight == 0 && !ended) {
      sendWaiting();
    }
  }

  /** Sends the waiting tokens now, if any; in order after every earlier chunk (one producer, one key). */
  private void sendWaiting() {
    if (waiting.isEmpty()) {
      return;
    }
    final TokenChunk chunk = records.chunk(nextIndex, waiting, false, null, waitingSinceMs);
    nextIndex += waiting.size();
    waiting.clear();
    inFlight++;
    output.tokens(chunk, failed, this::answered);
  }

  /** Says the run is alive while it waits to begin. */
  synchronized void heartbeat() {
    if (!ended) {
      output.tokens(records.claim(nextIndex), failed);
    }
  }

  /** Reports that the attempt failed; the report is not part of the stream. */
  synchronized void fail(final String why) {
    sendWaiting();
    output.tokens(records.failure(nextIndex, why), failed);
  }

  /** @param cachedTokens prompt tokens the engine found in its prefix cache */
  synchronized Completion completion(final CompletionOutcome outcome, final long startedMs, final long beganMs,
      final int cachedTokens) {
    return records.completion(outcome, nextIndex - resumedFrom, startedMs, beganMs, firstTokenMs, firstChunkTokens,
        cachedTokens);
  }
}
