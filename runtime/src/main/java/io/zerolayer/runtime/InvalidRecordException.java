package io.zerolayer.runtime;

/**
 * A record that reads fine but cannot be true. Thrown by a processor before it changes any
 * state; {@link DeadLetterInvalidRecords} sends the record to the dead-letter topic with this
 * message as the reason, and the app goes on.
 */
public final class InvalidRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public InvalidRecordException(final String reason) {
    super(reason);
  }
}
