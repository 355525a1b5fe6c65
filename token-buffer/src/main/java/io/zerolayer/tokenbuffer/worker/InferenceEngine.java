package io.zerolayer.tokenbuffer.worker;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;

/**
 * What actually generates tokens behind a {@link Worker}: a simulated GPU, or an adapter for
 * a real inference server. Called from the worker's task threads, one call per task.
 */
public interface InferenceEngine {

  /**
   * Generates the task's tokens from index {@code task.getResumeFromIndex()} on, handing them
   * to the sink as they come, until done or {@link TokenSink#cancelled()}.
   *
   * @return the finish reason ({@code "stop"}, {@code "length"}, ...)
   * @throws Exception when generation fails; the worker reports the attempt as failed
   */
  String generate(DispatchTask task, TokenSink sink) throws Exception;

  /** Handles a {@code PRE_WARM} or {@code PRE_CLEAR} command; {@code CANCEL} is the worker's. */
  void onCommand(InstanceCommand command);
}
