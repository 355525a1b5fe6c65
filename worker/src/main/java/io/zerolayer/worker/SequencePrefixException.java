package io.zerolayer.worker;

import java.io.IOException;

/**
 * The persisted prefix of a sequence could not be read from token-buffer: the sequence is
 * unknown, holds fewer tokens than the resume index, or token-buffer did not answer. The
 * message names the URL asked and what to check.
 */
public final class SequencePrefixException extends IOException {

  private static final long serialVersionUID = 1L;

  SequencePrefixException(final String message) {
    super(message);
  }

  SequencePrefixException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
