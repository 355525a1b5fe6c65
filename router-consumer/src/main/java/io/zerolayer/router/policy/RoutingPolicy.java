package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.List;

/**
 * Ranks the instances a request may go to. Implementations are stateless or thread-confined to
 * one router thread, and never block.
 */
public interface RoutingPolicy {

  /**
   * @return usable instances, best first; empty when none can take the request now
   */
  List<Candidate> rank(RequestProfile request, Heatmap heatmap);

  /** The policy's name, as it appears in decisions and benchmark tables. */
  String name();

  /**
   * Whether the router may still dispatch to a ranked instance whose row it reads again just
   * before dispatch. Zerolayer's policy screens out instances the heatmap says cannot take work;
   * a comparison policy only needs the instance to exist, so it gets no health check it does
   * not make itself.
   */
  default boolean admits(final InstanceScore row) {
    return row != null;
  }

  /**
   * Whether a request is throttled, with the time until it would wait less, rather than queued
   * longer than the router's bound before its prefill (a Zerolayer feature).
   */
  default boolean boundsQueueWait() {
    return false;
  }

  /**
   * Whether a stream slowed by its instance's lossy network stays there rather than be resumed
   * behind a queue elsewhere, while no backup can start it at once (a Zerolayer feature).
   */
  default boolean keepsLossyStreamsOutOfQueues() {
    return false;
  }

  /**
   * Whether an attempt that waits in its instance's queue far past its predicted first token moves
   * to an instance that would start it at once, when one can (a Zerolayer feature).
   */
  default boolean movesQueuedAttempts() {
    return false;
  }

  /**
   * Whether a stream cut away from an instance that loses packets resumes outside that
   * instance's zone while an instance of another zone can take it: the zone's network is the
   * likelier cause, and its other instances share it (a Zerolayer feature).
   */
  default boolean resumesOutsideALossyZone() {
    return false;
  }

  /** Whether a cold instance is pre-warmed before its first request (a Zerolayer feature). */
  default boolean preWarms() {
    return false;
  }
}
