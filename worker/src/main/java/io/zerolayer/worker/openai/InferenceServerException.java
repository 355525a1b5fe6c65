package io.zerolayer.worker.openai;

import java.io.IOException;

/**
 * The inference server refused a completion, could not be reached, or broke off its stream;
 * the message names the server's URL, the HTTP status where there was one, and the start of
 * what it answered.
 */
public final class InferenceServerException extends IOException {

  private static final long serialVersionUID = 1L;

  InferenceServerException(final String message) {
    super(message);
  }

  InferenceServerException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
