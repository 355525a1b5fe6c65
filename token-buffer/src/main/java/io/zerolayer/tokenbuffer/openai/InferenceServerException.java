package io.zerolayer.tokenbuffer.openai;

import java.io.IOException;

/**
 * The inference server refused a completion, could not be reached, or broke off its stream;
 * the message names the server's URL, the HTTP status where there was one, and the start of
 * what it answered.
 */
public final class InferenceServerException extends IOException {

  private static final long serialVersionUID = 1L;
  /** How much of an answer a message quotes. */
  static final int QUOTED_CHARS = 300;

  InferenceServerException(final String message) {
    super(message);
  }

  InferenceServerException(final String message, final Throwable cause) {
    super(message, cause);
  }

  /** The start of a body, on one line, for a message. */
  static String start(final String body) {
    final String line = body.replaceAll("\\s+", " ").strip();
    return line.length() <= QUOTED_CHARS ? line : line.substring(0, QUOTED_CHARS) + "...";
  }
}
