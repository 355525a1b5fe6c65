package io.zerolayer.fleet;

import io.zerolayer.contract.avro.DispatchTask;

/** Dispatch tasks for a simulated GPU. */
public final class Tasks {

  public static final long SEED = 7;

  private Tasks() {
  }

  public static DispatchTask task(final String sequenceId, final int inputTokens, final int maxOutputTokens) {
    return DispatchTask.newBuilder()
        .setSequenceId(sequenceId)
        .setEpoch(1)
        .setInstanceId("gpu-0")
        .setPrompt(prompt(sequenceId))
        .setInputTokens(inputTokens)
        .setMaxOutputTokens(maxOutputTokens)
        .setSeed(SEED)
        .setTraceId("trace-" + sequenceId)
        .setDispatchedAtMs(0)
        .build();
  }

  /** The text an uninterrupted run of {@link #task} gives. */
  public static String fullText(final DispatchTask task) {
    return TextModel.text(task.getPrompt(), task.getSeed(), task.getMaxOutputTokens(), task.getIgnoreEos());
  }

  private static String prompt(final String sequenceId) {
    return "Tell me about " + sequenceId;
  }
}
