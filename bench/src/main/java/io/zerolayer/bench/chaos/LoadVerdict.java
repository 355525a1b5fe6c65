package io.zerolayer.bench.chaos;

import java.util.List;

/**
 * What the clients of a chaos run were handed, counted in sequences.
 *
 * @param sent sequences sent (a request throttled at the door and sent again counts once)
 * @param lost sequences of which a token never reached the client
 * @param duplicated sequences of which the client was handed a token index twice
 * @param reordered sequences of which the client was handed a token index before an earlier one
 * @param spliced sequences whose text is not the simulated model's: a token of another attempt,
 *     or a resumed attempt that did not continue the text
 * @param unanswered sequences with no final answer in time, or refused after every retry
 * @param resent requests throttled at the door (before any token) and sent again after their retry time
 */
public record LoadVerdict(int sent, int lost, int duplicated, int reordered, int spliced, List<Unanswered> unanswered,
    int resent) {

  public LoadVerdict {
    unanswered = List.copyOf(unanswered);
  }

  /**
   * A sequence left without an answer.
   *
   * @param sequenceId its id (of the last attempt, when it was sent again)
   * @param what what its client had: when it was sent, its chunks and the last of them
   */
  public record Unanswered(String sequenceId, String what) {
  }

  /** Sequences with any violation of the stream's guarantees or left without an answer. */
  public int violations() {
    return lost + duplicated + reordered + spliced + unanswered.size();
  }
}
