package io.zerolayer.fleet;

/**
 * A simulated GPU could not generate a sequence: its KV cache had no room to admit it, or the
 * instance restarted (or shut down) while the sequence was in flight. The worker reports the
 * attempt as failed.
 */
public final class GenerationFailedException extends Exception {

  private static final long serialVersionUID = 1L;

  public GenerationFailedException(final String message) {
    super(message);
  }
}
