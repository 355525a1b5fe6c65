package io.zerolayer.contract.routing;

import java.util.Collection;
import java.util.List;

/**
 * The reasons of routing decisions that a reader must tell apart, written by the routers and read
 * back by the HTTP gateway: a tenant over its own limits (429, retry later) is not a fleet with no
 * room (503), and a model nobody serves (404) is not a malformed request (400).
 */
public final class RoutingReasons {

  private static final String OVER_LIMIT = "' is over its request or token rate";
  private static final String NOT_SERVED = "' is not served by any instance";
  private static final String IN_USE = "' is in use by a sequence that has not ended: give every request a new"
      + " sequence id";

  private RoutingReasons() {
  }

  /** Why a request of a tenant over its limits is throttled. */
  public static String tenantOverLimit(final String tenantId) {
    return "tenant '" + tenantId + OVER_LIMIT;
  }

  public static boolean isTenantOverLimit(final String reason) {
    return reason != null && reason.startsWith("tenant '") && reason.endsWith(OVER_LIMIT);
  }

  /** Why a request for a model no instance serves is rejected; names the models that are served. */
  public static String modelNotServed(final String model, final Collection<String> served) {
    return "model '" + model + NOT_SERVED + ": ask for one of " + List.copyOf(served);
  }

  public static boolean isModelNotServed(final String reason) {
    return reason != null && reason.startsWith("model '") && reason.contains(NOT_SERVED + ": ask for one of ");
  }

  /**
   * Why a request whose sequence id an unfinished sequence holds is rejected; the same whichever
   * tenant holds it, so that it tells no tenant which ids another uses.
   */
  public static String sequenceInUse(final String sequenceId) {
    return "sequence id '" + sequenceId + IN_USE;
  }

  public static boolean isSequenceInUse(final String reason) {
    return reason != null && reason.startsWith("sequence id '") && reason.endsWith(IN_USE);
  }
}
