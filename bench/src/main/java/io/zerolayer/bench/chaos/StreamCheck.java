package io.zerolayer.bench.chaos;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.fleet.TextModel;
import java.util.ArrayList;
import java.util.List;

/**
 * What one sequence's client was handed, against the tokens an uninterrupted run of the simulated
 * model gives its request.
 *
 * @param lost a token index never handed on
 * @param duplicated a token index handed on twice
 * @param reordered a token index handed on after a later one
 * @param spliced a token that is not the model's at its index, or an index past the text's end
 */
record StreamCheck(boolean lost, boolean duplicated, boolean reordered, boolean spliced) {

  /** Checks the chunks, in the order the client handed them on. */
  static StreamCheck of(final InferenceRequest request, final List<ResponseChunk> chunks) {
    final List<String> expected = expectedTokens(request);
    final boolean[] handed = new boolean[expected.size()];
    boolean duplicated = false;
    boolean reordered = false;
    boolean spliced = false;
    int next = 0;
    for (final ResponseChunk chunk : chunks) {
      for (int k = 0; k < chunk.getTokens().size(); k++) {
        final int index = chunk.getStartIndex() + k;
        if (index < 0 || index >= expected.size()) {
          spliced = true;
          continue;
        }
        duplicated |= handed[index];
        reordered |= !handed[index] && index < next;
        spliced |= !expected.get(index).equals(chunk.getTokens().get(k));
        handed[index] = true;
        next = Math.max(next, index + 1);
      }
    }
    boolean lost = false;
    for (final boolean one : handed) {
      lost |= !one;
    }
    return new StreamCheck(lost, duplicated, reordered, spliced);
  }

  private static List<String> expectedTokens(final InferenceRequest request) {
    final TextModel.Chain chain = TextModel.start(request.getPrompt(), request.getSeed());
    final int length = TextModel.length(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens(),
        request.getIgnoreEos());
    final List<String> tokens = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      tokens.add(chain.next());
    }
    return tokens;
  }
}
