package io.zerolayer.contract.serde;

import org.apache.kafka.common.errors.RetriableException;

/**
 * The registry could not be asked (unreachable, or failing on its side) while reading or
 * writing a record. Unlike a {@code SerializationException}, it says nothing about the record:
 * readers retry the same record later instead of dead-lettering it.
 */
public final class SchemaRegistryUnavailableException extends RetriableException {

  private static final long serialVersionUID = 1L;

  public SchemaRegistryUnavailableException(final String message, final Throwable cause) {
    super(message, cause);
  }

  /** Whether a registry failure is the registry's, not the record's. */
  static boolean isTransient(final SchemaRegistryException e) {
    return e.status() == 0 || e.status() >= 500;
  }

  /** Whether the exception, or one of its causes, is a registry outage. */
  public static boolean causedBy(final Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof SchemaRegistryUnavailableException) {
        return true;
      }
    }
    return false;
  }
}
