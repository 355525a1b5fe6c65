package io.zerolayer.tokenbuffer.worker;

import java.util.List;

/** Where an {@link InferenceEngine} puts the tokens of one task, in order. */
public interface TokenSink {

  /** Publishes the next tokens of the sequence. */
  void emit(List<String> tokens);

  /** True once the task was cancelled; the engine should stop generating. */
  boolean cancelled();
}
