package io.zerolayer.contract.topic;

import io.cloudevents.CloudEvent;
import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.SequenceHold;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.topic.Topic.Cleanup;
import java.time.Duration;
import java.util.List;

/**
 * The topic catalogue: the only place a topic name is spelled. Topics keyed by sequence id
 * that are joined (decisions, tokens, requests, responses, stalls, holds) share one partition count.
 */
public final class Topics {

  /** Partition count of every topic keyed by sequence id; they are co-partitioned. */
  public static final int SEQUENCE_PARTITIONS = 6;
  /** Partition count of every topic keyed by instance id. */
  public static final int INSTANCE_PARTITIONS = 6;

  private static final Duration SHORT = Duration.ofHours(1);
  private static final Duration DAY = Duration.ofDays(1);
  private static final Duration WEEK = Duration.ofDays(7);

  public static final Topic<String, InstanceTelemetry> TELEMETRY = new Topic<>(
      "gpu.telemetry.v1", String.class, InstanceTelemetry.class, INSTANCE_PARTITIONS, Cleanup.DELETE, SHORT);
  public static final Topic<byte[], byte[]> TELEMETRY_DLQ = new Topic<>(
      "gpu.telemetry.dlq.v1", byte[].class, byte[].class, 1, Cleanup.DELETE, WEEK);
  public static final Topic<String, Completion> COMPLETIONS = new Topic<>(
      "inference.completions.v1", String.class, Completion.class, INSTANCE_PARTITIONS, Cleanup.DELETE, DAY);
  public static final Topic<String, InstanceScore> INSTANCE_SCORES = new Topic<>(
      "routing.instance-scores.v1", String.class, InstanceScore.class, 3, Cleanup.COMPACT, DAY);
  public static final Topic<String, CloudEvent> STATUS_CHANGED = new Topic<>(
      "routing.status-changed.v1", String.class, CloudEvent.class, 3, Cleanup.DELETE, WEEK);
  public static final Topic<String, InferenceRequest> REQUESTS = new Topic<>(
      "inference.requests.v1", String.class, InferenceRequest.class, SEQUENCE_PARTITIONS, Cleanup.DELETE, DAY);
  public static final Topic<String, RoutingDecision> DECISIONS = new Topic<>(
      "routing.decisions.v1", String.class, RoutingDecision.class, SEQUENCE_PARTITIONS, Cleanup.DELETE, WEEK);
  /** Sequence ids in use, held by the routers, released by token-buffer; read back by a router that takes a partition. */
  public static final Topic<String, SequenceHold> SEQUENCE_HOLDS = new Topic<>(
      "routing.sequence-holds.v1", String.class, SequenceHold.class, SEQUENCE_PARTITIONS, Cleanup.COMPACT, DAY);
  public static final Topic<String, DispatchTask> DISPATCH = new Topic<>(
      "inference.dispatch.v1", String.class, DispatchTask.class, INSTANCE_PARTITIONS, Cleanup.DELETE, DAY);
  public static final Topic<String, InstanceCommand> COMMANDS = new Topic<>(
      "instance.commands.v1", String.class, InstanceCommand.class, INSTANCE_PARTITIONS, Cleanup.DELETE, DAY);
  /** What each instance's prefix cache stored and evicted, written by the engines, read by the routers. */
  public static final Topic<String, KvCacheEvent> KV_EVENTS = new Topic<>(
      "instance.kv-events.v1", String.class, KvCacheEvent.class, INSTANCE_PARTITIONS, Cleanup.DELETE, SHORT);
  public static final Topic<String, TokenChunk> TOKENS = new Topic<>(
      "inference.tokens.v1", String.class, TokenChunk.class, SEQUENCE_PARTITIONS, Cleanup.DELETE, DAY);
  public static final Topic<String, ResponseChunk> RESPONSES = new Topic<>(
      "inference.responses.v1", String.class, ResponseChunk.class, SEQUENCE_PARTITIONS, Cleanup.DELETE, DAY);
  public static final Topic<String, StallDetected> STALLS = new Topic<>(
      "routing.stalls.v1", String.class, StallDetected.class, SEQUENCE_PARTITIONS, Cleanup.DELETE, DAY);
  /** Bad records read by the router, token-buffer and workers (telemetry has its own). */
  public static final Topic<byte[], byte[]> INFERENCE_DLQ = new Topic<>(
      "inference.dlq.v1", byte[].class, byte[].class, 1, Cleanup.DELETE, WEEK);

  /** Every topic, in provisioning order. */
  public static final List<Topic<?, ?>> ALL = List.of(
      TELEMETRY, TELEMETRY_DLQ, COMPLETIONS, INSTANCE_SCORES, STATUS_CHANGED, REQUESTS, DECISIONS,
      SEQUENCE_HOLDS, DISPATCH, COMMANDS, KV_EVENTS, TOKENS, RESPONSES, STALLS, INFERENCE_DLQ);

  private Topics() {
  }
}
