package io.zerolayer.fleet;

import io.zerolayer.contract.avro.DispatchTask;
import java.util.ArrayList;
import java.util.List;

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

  /** The first {@code count} tokens the simulated model writes for {@code task}. */
  public static List<String> firstTokens(final DispatchTask task, final int count) {
    final TextModel.Chain chain = TextModel.start(task.getPrompt(), task.getSeed());
    final List<String> tokens = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tokens.add(chain.next());
    }
    return tokens;
  }

  /** {@code first} again, resumed by a later attempt after {@code prefix}. */
  public static DispatchTask resumed(final DispatchTask first, final List<String> prefix) {
    return DispatchTask.newBuilder(first).setEpoch(2).setResumeFromIndex(prefix.size()).setPrefix(prefix).build();
  }

  private static String prompt(final String sequenceId) {
    return "Tell me about " + sequenceId;
  }
}
