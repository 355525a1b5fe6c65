package io.zerolayer.deploy.topics;

/** Topics could not be created, described or made ready; the message says what to check. */
public final class ProvisioningException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ProvisioningException(final String message, final Throwable cause) {
    super(message, cause);
  }
}
