package io.zerolayer.testsupport;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.fleet.TextModel;

/** The text an uninterrupted run of the simulated model gives a request. */
public final class ExpectedText {

  private ExpectedText() {
  }

  public static String of(final InferenceRequest request) {
    return TextModel.text(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens(), request.getIgnoreEos());
  }

  /**
   * The text of a chat request, whose messages the worker is given as {@code role: content} lines.
   *
   * @param messages role and content, alternately
   */
  public static String ofChat(final long seed, final int maxOutputTokens, final String... messages) {
    final StringBuilder prompt = new StringBuilder();
    for (int i = 0; i + 1 < messages.length; i += 2) {
      prompt.append(messages[i]).append(": ").append(messages[i + 1]).append('\n');
    }
    return TextModel.text(prompt.toString(), seed, maxOutputTokens, false);
  }
}
