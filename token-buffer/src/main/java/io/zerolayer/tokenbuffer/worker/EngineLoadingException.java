package io.zerolayer.tokenbuffer.worker;

/** The engine still loads its weights, and the task was sent as to a warm instance: it goes back. */
final class EngineLoadingException extends Exception {

  private static final long serialVersionUID = 1L;

  EngineLoadingException(final String message) {
    super(message);
  }
}
