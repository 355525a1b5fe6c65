package io.zerolayer.worker;

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

  /**
   * Whether the engine is loading its weights and serves nothing yet. The worker then hands back
   * at once a task the router sent as to a warm instance ({@link DispatchTask#getExpectsWarm()}),
   * so that it moves to a backup rather than wait behind the load. An engine that cannot tell
   * answers false, and such a task waits as any other.
   */
  default boolean loading() {
    return false;
  }
}
