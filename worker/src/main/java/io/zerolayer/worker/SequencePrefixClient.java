package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.client.SequenceQuery;
import io.zerolayer.contract.sequence.SequenceView;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reads the persisted prefix of a sequence from token-buffer ({@link SequenceQuery}), so that a
 * backup worker can continue it.
 */
public final class SequencePrefixClient {

  private final SequenceQuery query;

  /**
   * @param queryUrl token-buffer's HTTP address, e.g. {@code http://token-buffer:8084}
   * @param token token-buffer's query token
   * @param connectTimeout how long to wait for a connection
   * @param retryBackoff the pause before asking again after a 503
   */
  public SequencePrefixClient(final String queryUrl, final String token, final Duration connectTimeout,
      final Duration retryBackoff) {
    this.query = new SequenceQuery(queryUrl, token, connectTimeout, retryBackoff);
  }

  /**
   * The first {@code count} tokens of a sequence, in order.
   *
   * @throws SequencePrefixException when the sequence is unknown, holds fewer tokens, or
   *     token-buffer cannot be reached or keeps answering 503
   */
  public List<String> prefix(final String sequenceId, final int count) throws SequencePrefixException,
      InterruptedException {
    requireNonNull(sequenceId, "sequenceId");
    if (count == 0) {
      return List.of();
    }
    final Optional<SequenceView> view;
    try {
      view = query.find(sequenceId);
    } catch (final SequenceQuery.SequenceQueryException e) {
      throw new SequencePrefixException(e.getMessage() + "; point the worker's sequence query URL (OpenAiWorkerApp:"
          + " ZEROLAYER_OPENAI_WORKER_SEQUENCE_QUERY_URL) at token-buffer's HTTP address (its tokenbuffer.http.port,"
          + " 8084 by default) and check it is running", e);
    }
    if (view.isEmpty()) {
      throw new SequencePrefixException("token-buffer at " + query.uriOf(sequenceId) + " holds no sequence "
          + sequenceId + " (never seen, or removed after its retention): it cannot be resumed from index " + count);
    }
    final List<String> tokens = view.get().tokens() == null ? List.of() : view.get().tokens();
    if (tokens.size() < count) {
      throw new SequencePrefixException("token-buffer at " + query.uriOf(sequenceId) + " holds " + tokens.size()
          + " tokens of " + sequenceId + ", fewer than the resume index " + count);
    }
    return List.copyOf(tokens.subList(0, count));
  }
}
