package io.zerolayer.gateway.internal;

/** A request the gateway cannot pass on: the message says what to change, the parameter where. */
public final class BadRequestException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String param;

  /**
   * @param param the offending parameter, as the API names it, or null when it is the body itself
   */
  public BadRequestException(final String param, final String message) {
    super(message);
    this.param = param;
  }

  public String param() {
    return param;
  }
}
