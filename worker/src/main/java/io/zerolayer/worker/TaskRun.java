package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of one sequence on this worker: claims the stream with an empty chunk (a resumed
 * attempt then catches up with what joined it since its prefix), tags each chunk with the
 * attempt's epoch and the index of its first token, ends with a final chunk, and reports a
 * completion.
 */
final class TaskRun implements Runnable, TokenSink {

  private static final Logger LOG = LoggerFactory.getLogger(TaskRun.class);
  private static final long CLAIM_TIMEOUT_MS = 10_000;

  private final DispatchTask task;
  private final InferenceEngine engine;
  private final WorkerOutput output;
  private final StreamCatchUp catchUp;
  /** This run's own id: a second run of the task (delivered again) is another owner of the stream. */
  private final String attemptId = UUID.randomUUID().toString();
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final AtomicBoolean sendFailed = new AtomicBoolean();
  private final AtomicBoolean started = new AtomicBoolean();
  private final long startedMs;
  private int resumedFrom;
  private int nextIndex;
  private long firstTokenMs;

  TaskRun(final DispatchTask task, final InferenceEngine engine, final WorkerOutput output,
      final StreamCatchUp catchUp) {
    this.task = requireNonNull(task, "task");
    this.engine = requireNonNull(engine, "engine");
    this.output = requireNonNull(output, "output");
    this.catchUp = requireNonNull(catchUp, "catchUp");
    this.resumedFrom = task.getResumeFromIndex();
    this.nextIndex = task.getResumeFromIndex();
    this.startedMs = System.currentTimeMillis();
  }

  DispatchTask task() {
    return task;
  }

  void cancel() {
    cancelled.set(true);
  }

  @Override
  public void run() {
    if (task.getExpectsWarm() && engine.loading()) {
      handBack();
      return;
    }
    CompletionOutcome outcome = CompletionOutcome.FINISHED;
    String finishReason;
    try {
      final Optional<DispatchTask> attempt = claim();
      if (attempt.isEmpty()) {
        LOG.info("{} (epoch {}) is not this attempt's to continue: a newer attempt owns its stream, or it ended",
            task.getSequenceId(), task.getEpoch());
        output.completion(completion(CompletionOutcome.CANCELLED));
        return;
      }
      finishReason = engine.generate(attempt.get(), this);
      if (sendFailed.get()) {
        outcome = CompletionOutcome.FAILED;
      } else if (cancelled.get()) {
        outcome = CompletionOutcome.CANCELLED;
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = CompletionOutcome.CANCELLED;
      finishReason = "cancelled";
    } catch (final Exception e) {
      if (e instanceof RuntimeException) {
        LOG.error("Generation of {} (epoch {}) failed unexpectedly", task.getSequenceId(), task.getEpoch(), e);
      } else {
        // The engine's own report (a fault, the server's error answer): its message says what failed.
        LOG.warn("Generation of {} (epoch {}) failed: {}", task.getSequenceId(), task.getEpoch(), e.toString());
      }
      outcome = CompletionOutcome.FAILED;
      finishReason = "error";
      // Said at once, so that the sequence moves to a backup now rather than after a timeout.
      output.tokens(failure(String.valueOf(e.getMessage())), this::failed);
    }
    if (outcome == CompletionOutcome.FINISHED) {
      output.tokens(chunk(List.of(), true, finishReason), this::failed);
    }
    output.completion(completion(outcome));
  }

  /**
   * Claims the sequence's stream before the first token: from the claim on, an older attempt's
   * chunks are refused by token-buffer and by clients alike. A resumed attempt then reads what
   * joined the stream since its task's prefix, up to the claim, and continues after exactly that.
   *
   * @return the task to generate, with the whole prefix; empty when the attempt must not generate
   */
  private Optional<DispatchTask> claim() throws Exception {
    final TokenChunk claim = chunk(List.of(), false, null);
    if (task.getPrefixOffset() < 0) {
      output.tokens(claim, this::failed);
      return Optional.of(task);
    }
    final RecordMetadata at = output.claim(claim).get(CLAIM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    final Optional<List<String>> prefix = catchUp.at(task, attemptId, at);
    prefix.ifPresent(tokens -> {
      resumedFrom = tokens.size();
      nextIndex = tokens.size();
    });
    return prefix.map(tokens -> DispatchTask.newBuilder(task).setPrefix(tokens).setResumeFromIndex(tokens.size())
        .build());
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
    if (task.getRequestPartition() < 0 || task.getRequestOffset() < 0) {
      output.tokens(failure(why), this::failed);
    } else {
      output.stall(handedBack(why), error -> output.tokens(failure(why), this::failed));
    }
    output.completion(completion(CompletionOutcome.FAILED));
  }

  @Override
  public void emit(final List<String> tokens) {
    if (tokens.isEmpty() || cancelled.get()) {
      return;
    }
    if (firstTokenMs == 0) {
      firstTokenMs = System.currentTimeMillis();
    }
    output.tokens(chunk(tokens, false, null), this::failed);
    nextIndex += tokens.size();
  }

  @Override
  public void started() {
    started.set(true);
  }

  /** Says the attempt is alive while it waits in the engine's queue. */
  void heartbeatIfWaiting() {
    if (!started.get() && !cancelled.get()) {
      output.tokens(chunk(List.of(), false, null), this::failed);
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

  private StallDetected handedBack(final String why) {
    return StallDetected.newBuilder()
        .setSequenceId(task.getSequenceId())
        .setEpoch(task.getEpoch())
        .setInstanceId(task.getInstanceId())
        .setNextIndex(task.getResumeFromIndex())
        .setPrefix(task.getPrefix())
        .setPrefixOffset(task.getPrefixOffset())
        .setStreamEpoch(task.getStreamEpoch())
        .setStreamOwner(task.getStreamOwner())
        .setStreamAttempt(task.getStreamAttempt())
        .setReason(why)
        .setRequestPartition(task.getRequestPartition())
        .setRequestOffset(task.getRequestOffset())
        .setDetectedAtMs(System.currentTimeMillis())
        .build();
  }

  private TokenChunk failure(final String why) {
    final TokenChunk chunk = chunk(List.of(), false, null);
    chunk.setFailure(why);
    return chunk;
  }

  private TokenChunk chunk(final List<String> tokens, final boolean last, final String finishReason) {
    return TokenChunk.newBuilder()
        .setSequenceId(task.getSequenceId())
        .setEpoch(task.getEpoch())
        .setInstanceId(task.getInstanceId())
        .setAttemptId(attemptId)
        .setStartIndex(nextIndex)
        .setTokens(List.copyOf(tokens))
        .setLast(last)
        .setFinishReason(finishReason)
        .setInputTokens(task.getInputTokens())
        .setEmittedAtMs(System.currentTimeMillis())
        .build();
  }

  private Completion completion(final CompletionOutcome outcome) {
    final long now = System.currentTimeMillis();
    return Completion.newBuilder()
        .setSequenceId(task.getSequenceId())
        .setEpoch(task.getEpoch())
        .setInstanceId(task.getInstanceId())
        .setInputTokens(task.getInputTokens())
        .setOutputTokens(nextIndex - resumedFrom)
        .setTtftMs(firstTokenMs == 0 ? now - startedMs : firstTokenMs - startedMs)
        .setTotalMs(now - startedMs)
        .setOutcome(outcome)
        .setFinishedAtMs(now)
        .build();
  }
}
