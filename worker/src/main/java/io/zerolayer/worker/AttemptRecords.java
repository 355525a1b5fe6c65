package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import java.util.UUID;

/**
 * Builds the records of one run of a task: each carries the task's sequence, epoch and instance,
 * and its chunks this run's own id and how the router chose the instance.
 */
final class AttemptRecords {

  private final DispatchTask task;
  /** A second run of the task (delivered again) is another owner of the stream. */
  private final String attemptId = UUID.randomUUID().toString();

  AttemptRecords(final DispatchTask task) {
    this.task = requireNonNull(task, "task");
  }

  String attemptId() {
    return attemptId;
  }

  TokenChunk chunk(final int startIndex, final List<String> tokens, final boolean last, final String finishReason) {
    return chunk(startIndex, tokens, last, finishReason, System.currentTimeMillis());
  }

  /** @param emittedAtMs when the engine emitted the chunk's first token */
  TokenChunk chunk(final int startIndex, final List<String> tokens, final boolean last, final String finishReason,
      final long emittedAtMs) {
    return TokenChunk.newBuilder()
        .setSequenceId(task.getSequenceId())
        .setEpoch(task.getEpoch())
        .setInstanceId(task.getInstanceId())
        .setAttemptId(attemptId)
        .setStartIndex(startIndex)
        .setTokens(List.copyOf(tokens))
        .setLast(last)
        .setFinishReason(finishReason)
        .setInputTokens(task.getInputTokens())
        .setRouting(task.getRouting())
        .setRequestPartition(task.getRequestPartition())
        .setRequestOffset(task.getRequestOffset())
        .setEmittedAtMs(emittedAtMs)
        .build();
  }

  /** A claim on the stream, or a heartbeat of an attempt still queued: empty, not the last. */
  TokenChunk claim(final int startIndex) {
    return chunk(startIndex, List.of(), false, null);
  }

  TokenChunk failure(final int startIndex, final String why) {
    final TokenChunk chunk = claim(startIndex);
    chunk.setFailure(why);
    return chunk;
  }

  /** The report that hands the attempt back to the routers before it began. */
  StallDetected handedBack(final String why) {
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

  /**
   * @param startedMs when the run began
   * @param beganMs when the engine began the attempt (it left the engine's queue); 0 when it did not say
   * @param firstTokenMs when its first token went out; 0 for none
   * @param firstChunkTokens how many tokens the engine emitted then; 0 for none
   * @param cachedTokens prompt tokens the engine found in its prefix cache
   */
  Completion completion(final CompletionOutcome outcome, final int outputTokens, final long startedMs,
      final long beganMs, final long firstTokenMs, final int firstChunkTokens, final int cachedTokens) {
    final long now = System.currentTimeMillis();
    final long ttftMs = firstTokenMs == 0 ? now - startedMs : firstTokenMs - startedMs;
    return Completion.newBuilder()
        .setSequenceId(task.getSequenceId())
        .setEpoch(task.getEpoch())
        .setInstanceId(task.getInstanceId())
        .setInputTokens(task.getInputTokens())
        .setOutputTokens(outputTokens)
        .setMaxOutputTokens(task.getMaxOutputTokens())
        .setIgnoreEos(task.getIgnoreEos())
        .setCachedTokens(Math.min(cachedTokens, task.getInputTokens()))
        .setTtftMs(ttftMs)
        .setFirstChunkTokens(firstChunkTokens)
        .setQueuedMs(beganMs == 0 ? 0 : Math.max(0, Math.min(ttftMs, beganMs - startedMs)))
        // Clocks of two machines: a router's ahead of the worker's reads as no handoff rather than a negative one.
        .setQueueEstimateMs(beganMs == 0 ? null : task.getQueueEstimateMs())
        .setHandoffMs(task.getDispatchedAtMs() <= 0 ? 0 : Math.max(0, startedMs - task.getDispatchedAtMs()))
        .setTotalMs(now - startedMs)
        .setOutcome(outcome)
        .setFinishedAtMs(now)
        .build();
  }
}
