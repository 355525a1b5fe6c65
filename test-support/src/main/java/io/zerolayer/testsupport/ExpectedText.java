package io.zerolayer.testsupport;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.fleet.TextModel;

/** The text an uninterrupted run of the simulated model gives a request. */
public final class ExpectedText {

  private ExpectedText() {
  }

  public static String of(final InferenceRequest request) {
    return TextModel.text(request.getPrompt(), request.getSeed(), request.getMaxOutputTokens());
  }
}
