package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceHold;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;

/** Builds the records a decision turns into. */
public final class RouterRecords {

  private final String routerId;

  public RouterRecords(final String routerId) {
    this.routerId = routerId;
  }

  /** The decision record of a request read from {@code requestPartition} at {@code requestOffset}. */
  public RoutingDecision decision(final InferenceRequest request, final Decision decision, final int inputTokens,
      final String traceId, final long nowMs, final int requestPartition, final long requestOffset) {
    return RoutingDecision.newBuilder()
        .setSequenceId(request.getSequenceId())
        .setEpoch(decision.dispatched() ? 1 : 0)
        .setInstanceId(decision.instanceId())
        .setOutcome(decision.outcome())
        .setReason(decision.reason())
        .setPredictedLatencyMs(decision.predictedLatencyMs())
        .setPredictedTtftMs(decision.predictedTtftMs())
        .setRetryAfterMs(decision.retryAfterMs())
        .setResumeFromIndex(0)
        .setMaxOutputTokens(request.getMaxOutputTokens())
        .setInputTokens(inputTokens)
        .setReplyTopic(request.getReplyTopic())
        .setRequestPartition(requestPartition)
        .setRequestOffset(requestOffset)
        .setTraceId(traceId)
        .setRouterId(routerId)
        .setDecidedAtMs(nowMs)
        .build();
  }

  /** The hold of a dispatched request's sequence id, until token-buffer releases it. */
  public SequenceHold hold(final RoutingDecision dispatched) {
    return SequenceHold.newBuilder()
        .setSequenceId(dispatched.getSequenceId())
        .setTenantId(dispatched.getTenantId())
        .setRequestPartition(dispatched.getRequestPartition())
        .setRequestOffset(dispatched.getRequestOffset())
        .setHeldAtMs(dispatched.getDecidedAtMs())
        .build();
  }

  /** The rejection of a record that could not even be read as a request, read from that place. */
  public RoutingDecision unreadable(final String sequenceId, final String reason, final String traceId,
      final long nowMs, final int requestPartition, final long requestOffset) {
    return RoutingDecision.newBuilder()
        .setSequenceId(sequenceId)
        .setEpoch(0)
        .setOutcome(RoutingOutcome.REJECTED)
        .setReason(reason)
        .setRequestPartition(requestPartition)
        .setRequestOffset(requestOffset)
        .setTraceId(traceId)
        .setRouterId(routerId)
        .setDecidedAtMs(nowMs)
        .build();
  }

  /** The decision that moves a stalled sequence to a backup (or throttles it when none is left). */
  public RoutingDecision cutover(final InferenceRequest request, final StallDetected stall, final Decision decision,
      final int inputTokens, final long nowMs) {
    return RoutingDecision.newBuilder()
        .setSequenceId(stall.getSequenceId())
        .setEpoch(stall.getEpoch() + 1)
        .setInstanceId(decision.instanceId())
        .setOutcome(decision.outcome())
        .setReason(decision.reason())
        .setPredictedLatencyMs(decision.predictedLatencyMs())
        .setRetryAfterMs(decision.retryAfterMs())
        .setResumeFromIndex(stall.getNextIndex())
        .setMaxOutputTokens(request.getMaxOutputTokens())
        .setInputTokens(inputTokens)
        .setReplyTopic(request.getReplyTopic())
        .setRequestPartition(stall.getRequestPartition())
        .setRequestOffset(stall.getRequestOffset())
        .setTraceId(request.getTraceId() == null ? stall.getSequenceId() : request.getTraceId())
        .setRouterId(routerId)
        .setDecidedAtMs(nowMs)
        .build();
  }

  /**
   * The end of a throttled stalled sequence in the tokens log: an empty last chunk of the
   * decision's epoch, in the stalled instance's name, which closes the stream where it is for
   * every reader of the log (see {@code TokenStreamRules}).
   */
  public TokenChunk end(final StallDetected stall, final RoutingDecision decided) {
    return TokenChunk.newBuilder()
        .setSequenceId(decided.getSequenceId())
        .setEpoch(decided.getEpoch())
        .setInstanceId(stall.getInstanceId())
        .setAttemptId("ended by router " + routerId)
        .setRequestPartition(decided.getRequestPartition())
        .setRequestOffset(decided.getRequestOffset())
        .setStartIndex(stall.getNextIndex())
        .setTokens(List.of())
        .setLast(true)
        .setFinishReason(decided.getOutcome().name().toLowerCase())
        .setInputTokens(decided.getInputTokens())
        .setRouting(decided.getOutcome())
        .setEmittedAtMs(decided.getDecidedAtMs())
        .build();
  }

  /** The command that stops the stalled attempt on its old owner. */
  public InstanceCommand cancel(final StallDetected stall, final long nowMs) {
    return InstanceCommand.newBuilder()
        .setInstanceId(stall.getInstanceId())
        .setType(CommandType.CANCEL)
        .setSequenceId(stall.getSequenceId())
        .setEpoch(stall.getEpoch())
        .setReason("cut over: " + stall.getReason())
        .setIssuedAtMs(nowMs)
        .build();
  }

  /**
   * The task of an attempt: the first, or a resumed one from the decision's resume index.
   *
   * @param chosen the decision behind the record: whether it chose the instance as one that has
   *     loaded its weights, and its queue estimate
   * @param resumed where a resumed attempt continues, from the stall report; null for a first one
   */
  public DispatchTask dispatch(final InferenceRequest request, final RoutingDecision decision, final String prompt,
      final Decision chosen, final StallDetected resumed) {
    return DispatchTask.newBuilder()
        .setSequenceId(request.getSequenceId())
        .setEpoch(decision.getEpoch())
        .setInstanceId(decision.getInstanceId())
        .setPrompt(prompt)
        .setInputTokens(decision.getInputTokens())
        .setMaxOutputTokens(request.getMaxOutputTokens())
        .setIgnoreEos(request.getIgnoreEos())
        .setSeed(request.getSeed())
        .setResumeFromIndex(decision.getResumeFromIndex())
        .setTraceId(decision.getTraceId())
        .setDispatchedAtMs(decision.getDecidedAtMs())
        .setRequestPartition(decision.getRequestPartition())
        .setRequestOffset(decision.getRequestOffset())
        .setExpectsWarm(chosen.expectsWarm())
        .setPrefix(resumed == null ? List.of() : resumed.getPrefix())
        .setPrefixOffset(resumed == null ? -1 : resumed.getPrefixOffset())
        .setStreamEpoch(resumed == null ? 0 : resumed.getStreamEpoch())
        .setStreamOwner(resumed == null ? null : resumed.getStreamOwner())
        .setStreamAttempt(resumed == null ? null : resumed.getStreamAttempt())
        .setRouting(decision.getOutcome())
        .setQueueEstimateMs(resumed == null ? chosen.queueEstimateMs() : null)
        .build();
  }

  /** The pre-warm command a request sends to the cold instance it would have gone to. */
  public InstanceCommand preWarm(final RoutingDecision decision, final String coldInstance) {
    return InstanceCommand.newBuilder()
        .setInstanceId(coldInstance)
        .setType(CommandType.PRE_WARM)
        .setSequenceId(decision.getSequenceId())
        .setReason("request " + decision.getSequenceId() + " ranked this cold instance first")
        .setIssuedAtMs(decision.getDecidedAtMs())
        .build();
  }
}
