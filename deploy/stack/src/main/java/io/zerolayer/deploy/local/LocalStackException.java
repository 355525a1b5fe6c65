package io.zerolayer.deploy.local;

/**
 * A part of the local stack could not be started or stopped. The message names the cause, the fix
 * and, where there is one, the log file to read; it is written to be shown to the user as is.
 */
public final class LocalStackException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public LocalStackException(final String message) {
    super(message);
  }

  public LocalStackException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
