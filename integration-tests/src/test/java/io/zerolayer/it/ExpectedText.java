package io.zerolayer.it;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.fleet.TextModel;

/** The text an uninterrupted run of the simulated model gives a request. */
final class ExpectedText {

  private ExpectedText() {
  }

  static String of(final InferenceRequest request) {
    final StringBuilder text = new StringBuilder();
    final int length = TextModel.length(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens());
    for (int i = 0; i < length; i++) {
      text.append(TextModel.token(request.getPrompt(), request.getSeed(), i));
    }
    return text.toString();
  }
}
