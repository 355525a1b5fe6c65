package io.zerolayer.worker;

import java.util.List;

/** Where an {@link InferenceEngine} puts the tokens of one task, in order. */
public interface TokenSink {

  /**
   * Says the engine began generating this task (it left the queue). Until then the worker tells
   * token-buffer the attempt is alive but queued; from then on, tokens must show progress.
   */
  void started();

  /**
   * Says how many of the prompt's tokens the engine found in its prefix cache and did not
   * prefill; the completion record carries it, so that the latency model fits prefill to the
   * tokens prefilled. An engine that cannot tell does not call it.
   */
  default void cachedPrompt(final int tokens) {
  }

  /** Publishes the next tokens of the sequence. */
  void emit(List<String> tokens);

  /** True once the task was cancelled; the engine should stop generating. */
  boolean cancelled();
}
