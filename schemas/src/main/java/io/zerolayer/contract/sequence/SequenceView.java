package io.zerolayer.contract.sequence;

import io.zerolayer.contract.avro.SequenceState;
import java.util.List;

/**
 * One sequence as token-buffer holds it: what a backup worker resumes from, and what an
 * operator asks about.
 *
 * @param sequenceId the sequence
 * @param epoch the current attempt's epoch
 * @param owner the instance of the current attempt, or null
 * @param status PENDING, STREAMING, FINISHED or FAILED
 * @param outcome the routing outcome so far, or null
 * @param tokens every token accepted so far, in order
 * @param nextIndex the index the next token will have
 * @param requestPartition where the request that started the sequence is on the ingress topic
 * @param requestOffset and at which offset; a chunk that answers another request with the same
 *     sequence id (refused: the id was in use) names another place
 * @param tenantId the tenant whose request started the sequence, or null when no decision said
 */
public record SequenceView(String sequenceId, int epoch, String owner, String status, String outcome,
    List<String> tokens, int nextIndex, int requestPartition, long requestOffset, String tenantId) {

  /** The view of a stored state and its tokens. */
  public static SequenceView of(final SequenceState state, final List<String> tokens) {
    return new SequenceView(state.getSequenceId(), state.getEpoch(), state.getOwner(), state.getStatus().name(),
        state.getOutcome() == null ? null : state.getOutcome().name(), List.copyOf(tokens), state.getTokenCount(),
        state.getRequestPartition(), state.getRequestOffset(), state.getTenantId());
  }
}
