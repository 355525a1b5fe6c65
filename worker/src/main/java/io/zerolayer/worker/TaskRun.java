package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of one sequence on this worker: claims the stream with an empty chunk (a resumed
 * attempt then catches up with what joined it since its prefix), tags each chunk with the
 * attempt's epoch and the index of its first token, ends with a final chunk, and reports a
 * completion. A cancelled attempt stops; one whose cancel ends the sequence (its client went
 * away) also ends the stream, with a final chunk whose finish reason is {@value #CANCELLED}.
 */
final class TaskRun implements Runnable, TokenSink {

  /** The finish reason of a sequence ended because its client went away. */
  static final String CANCELLED = "cancelled";

  private static final Logger LOG = LoggerFactory.getLogger(TaskRun.class);
  private static final long CLAIM_TIMEOUT_MS = 10_000;

  private final DispatchTask task;
  private final InferenceEngine engine;
  private final WorkerOutput output;
  private final StreamCatchUp catchUp;
  private final AttemptRecords records;
  private final AttemptStream stream;
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final AtomicBoolean endsSequence = new AtomicBoolean();
  private final AtomicBoolean sendFailed = new AtomicBoolean();
  /** When the engine began the attempt (it left the engine's queue); 0 until it says so. */
  private final AtomicLong beganMs = new AtomicLong();
  private final AtomicInteger cachedTokens = new AtomicInteger();
  private final long startedMs;

  TaskRun(final DispatchTask task, final InferenceEngine engine, final WorkerOutput output,
      final StreamCatchUp catchUp) {
    this.task = requireNonNull(task, "task");
    this.engine = requireNonNull(engine, "engine");
    this.output = requireNonNull(output, "output");
    this.catchUp = requireNonNull(catchUp, "catchUp");
    this.records = new AttemptRecords(task);
    this.stream = new AttemptStream(task, records, output, this::failed);
    this.startedMs = System.currentTimeMillis();
  }

  DispatchTask task() {
    return task;
  }

  /** Stops the run and leaves the stream to whoever owns it now (a stale attempt after a cut-over). */
  void cancel() {
    cancelled.set(true);
  }

  /**
   * Stops the run and ends the sequence: its client went away. The final chunk goes out at once
   * when the run's place in the stream is known or needs no catch-up, else right after the
   * catch-up of its claim; a run that had not begun generating does not begin.
   */
  void endSequence() {
    // Set before the stream is asked, so that a catch-up ending after this call sees it.
    endsSequence.set(true);
    cancelled.set(true);
    stream.endIfPlaceable(CANCELLED);
  }

  @Override
  public void run() {
    if (!endsSequence.get() && task.getExpectsWarm() && engine.loading()) {
      handBack();
      return;
    }
    CompletionOutcome outcome;
    try {
      outcome = attempt();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = CompletionOutcome.CANCELLED;
    } catch (final Exception e) {
      outcome = generationFailed(e);
    }
    output.completion(stream.completion(outcome, startedMs, beganMs.get(), cachedTokens.get()));
  }

  /** Claims the stream, generates and ends it; the attempt's outcome. */
  private CompletionOutcome attempt() throws Exception {
    if (stream.ended()) {
      LOG.debug("{} (epoch {}) ended before its run began", task.getSequenceId(), task.getEpoch());
      return CompletionOutcome.CANCELLED;
    }
    final Optional<DispatchTask> attempt = claim();
    if (attempt.isEmpty()) {
      LOG.info("{} (epoch {}) is not this attempt's to continue: a newer attempt owns its stream, or it ended",
          task.getSequenceId(), task.getEpoch());
      return CompletionOutcome.CANCELLED;
    }
    if (stream.ended()) {
      return CompletionOutcome.CANCELLED;
    }
    final String finishReason = engine.generate(attempt.get(), this);
    if (sendFailed.get()) {
      return CompletionOutcome.FAILED;
    }
    if (cancelled.get()) {
      return CompletionOutcome.CANCELLED;
    }
    // The sequence may have been ended since the engine returned: then its final chunk stands.
    return stream.end(finishReason) ? CompletionOutcome.FINISHED : CompletionOutcome.CANCELLED;
  }

  private CompletionOutcome generationFailed(final Exception e) {
    if (endsSequence.get()) {
      // Stopping the engine for a client that went away may make it fail; the sequence is over either way.
      LOG.debug("{} (epoch {}) failed as it was ended: {}", task.getSequenceId(), task.getEpoch(), e.toString());
      return CompletionOutcome.CANCELLED;
    }
    if (e instanceof RuntimeException) {
      LOG.error("Generation of {} (epoch {}) failed unexpectedly", task.getSequenceId(), task.getEpoch(), e);
    } else {
      // The engine's own report (a fault, the server's error answer): its message says what failed.
      LOG.warn("Generation of {} (epoch {}) failed: {}", task.getSequenceId(), task.getEpoch(), e.toString());
    }
    // Said at once, so that the sequence moves to a backup now rather than after a timeout.
    stream.fail(String.valueOf(e.getMessage()));
    return CompletionOutcome.FAILED;
  }

  /**
   * Claims the sequence's stream before the first token: from the claim on, an older attempt's
   * chunks are refused by token-buffer and by clients alike. A resumed attempt then reads what
   * joined the stream since its task's prefix, up to the claim, and continues after exactly that.
   *
   * @return the task to generate, with the whole prefix; empty when the attempt must not generate
   */
  private Optional<DispatchTask> claim() throws Exception {
    if (task.getPrefixOffset() < 0) {
      stream.claim();
      return Optional.of(task);
    }
    final RecordMetadata at = output.claim(records.claim(task.getResumeFromIndex()))
        .get(CLAIM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    final Optional<List<String>> prefix = catchUp.at(task, records.attemptId(), at);
    if (prefix.isEmpty()) {
      return Optional.empty();
    }
    final int resumeAt = prefix.get().size();
    stream.caughtUp(resumeAt);
    if (endsSequence.get()) {
      stream.end(CANCELLED);
    }
    return Optional.of(DispatchTask.newBuilder(task).setPrefix(prefix.get()).setResumeFromIndex(resumeAt).build());
  }

  /**
   * A task sent as to a warm instance goes back at once while the engine loads its weights. The
   * worker asks the routers for the cut-over itself: a failure chunk would wait for token-buffer's
   * next commit before a router could read the stall it reports. The failure chunk carries it when
   * the report cannot be sent, or when the task does not say where its request is (a router that
   * predates the field sent it): token-buffer knows that from the decision.
   */
  private void handBack() {
    final String why = "the worker handed the attempt back: " + task.getInstanceId() + " is loading its weights"
        + " and serves nothing yet, and the task was sent as to a warm instance";
    LOG.info("Handing {} (epoch {}) back: {} is loading its weights", task.getSequenceId(), task.getEpoch(),
        task.getInstanceId());
    // Not through the stream: the producer's thread runs the callback, and must never wait for the stream's lock.
    final Runnable failure = () -> output.tokens(records.failure(task.getResumeFromIndex(), why), this::failed);
    if (task.getRequestPartition() < 0 || task.getRequestOffset() < 0) {
      failure.run();
    } else {
      output.stall(records.handedBack(why), error -> failure.run());
    }
    output.completion(stream.completion(CompletionOutcome.FAILED, startedMs, beganMs.get(), cachedTokens.get()));
  }

  @Override
  public void emit(final List<String> tokens) {
    if (!cancelled.get()) {
      stream.emit(tokens);
    }
  }

  @Override
  public void started() {
    beganMs.compareAndSet(0, System.currentTimeMillis());
  }

  @Override
  public void cachedPrompt(final int tokens) {
    cachedTokens.set(Math.max(0, tokens));
  }

  /**
   * What the attempt may still generate while the engine runs it (it began, and was neither
   * cancelled nor ended): its output limit less its stream's tokens so far; else empty.
   */
  OptionalInt tokensToLimit() {
    if (beganMs.get() == 0 || cancelled.get()) {
      return OptionalInt.empty();
    }
    return stream.tokensToLimit(task.getMaxOutputTokens());
  }

  /** Says the attempt is alive while it waits in the engine's queue. */
  void heartbeatIfWaiting() {
    if (beganMs.get() == 0 && !cancelled.get()) {
      stream.heartbeat();
    }
  }

  /** A chunk could not be sent: stop, so the stall rules hand the sequence to a backup. */
  private void failed(final Exception error) {
    LOG.warn("Stopping {} (epoch {}): a token chunk could not be sent: {}", task.getSequenceId(), task.getEpoch(),
        error.toString());
    sendFailed.set(true);
    cancelled.set(true);
  }

  @Override
  public boolean cancelled() {
    return cancelled.get();
  }
}
