package io.zerolayer.contract.serde;

/** The registry answered with an error, or could not be reached (status 0). */
public final class SchemaRegistryException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;

  public SchemaRegistryException(final int status, final String message) {
    super(message);
    this.status = status;
  }

  public SchemaRegistryException(final String message, final Throwable cause) {
    super(message, cause);
    this.status = 0;
  }

  /** HTTP status of the answer; 0 when there was none. */
  public int status() {
    return status;
  }
}
