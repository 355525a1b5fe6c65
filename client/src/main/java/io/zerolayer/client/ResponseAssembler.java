package io.zerolayer.client;

import io.zerolayer.contract.avro.ResponseChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts one sequence's response chunks back together and checks the stream's promise: chunks
 * arrive in order, each starting where the previous one ended, with no gap and no repeat.
 */
final class ResponseAssembler {

  private final String sequenceId;
  private final List<String> tokens = new ArrayList<>();
  private int chunks;

  ResponseAssembler(final String sequenceId) {
    this.sequenceId = sequenceId;
  }

  /**
   * Adds the next chunk.
   *
   * @return the complete response when this chunk is the last, else null
   * @throws IllegalStateException when the chunk does not start where the stream stands
   */
  Response add(final ResponseChunk chunk) {
    if (chunk.getStartIndex() != tokens.size()) {
      throw new IllegalStateException("Response of " + sequenceId + " broke order: chunk starts at "
          + chunk.getStartIndex() + " but " + tokens.size() + " tokens were received (chunk of epoch "
          + chunk.getEpoch() + " from " + chunk.getInstanceId() + ")");
    }
    tokens.addAll(chunk.getTokens());
    chunks++;
    return chunk.getLast() ? new Response(sequenceId, tokens, chunk, chunks) : null;
  }
}
