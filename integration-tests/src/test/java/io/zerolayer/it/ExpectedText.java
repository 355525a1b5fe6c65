package io.zerolayer.it;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.fleet.TextModel;

/** The text an uninterrupted run of the simulated model gives a request. */
final class ExpectedText {

  private ExpectedText() {
  }

  static String of(final InferenceRequest request) {
    return TextModel.text(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens());
  }
}
