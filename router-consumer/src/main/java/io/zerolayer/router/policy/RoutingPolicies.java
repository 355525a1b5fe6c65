package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The routing policies a router can run, by the name they carry in decisions and benchmark tables.
 * Only Zerolayer's policy has the router skip a ranked instance the heatmap marks unusable at
 * dispatch time and pre-warm a cold one ({@link RoutingPolicy#admits}, {@link RoutingPolicy#preWarms});
 * the baselines dispatch as the balancers they imitate do.
 */
public final class RoutingPolicies {

  /** Zerolayer's own policy, the default. */
  public static final String DEFAULT = LatencyAwarePolicy.NAME;

  /** Every name {@link #named} knows, the default first. */
  public static final List<String> NAMES = List.of(LatencyAwarePolicy.NAME, RoundRobinPolicy.NAME,
      LeastOutstandingPolicy.NAME, PowerOfTwoChoicesPolicy.NAME, EndpointPickerPolicy.NAME, PrefixAwarePolicy.NAME);

  private RoutingPolicies() {
  }

  /**
   * A new policy of that name. New on every call because some policies keep state (a cycle, a
   * random generator) confined to the one router thread that uses them.
   *
   * @throws IllegalArgumentException when no policy has that name; the message lists the names
   */
  public static RoutingPolicy named(final String name) {
    return named(name, ServiceObjective.DEFAULT);
  }

  /**
   * {@link #named(String)}, with the service objective Zerolayer's policy ranks against (the
   * baselines have none).
   */
  public static RoutingPolicy named(final String name, final ServiceObjective objective) {
    requireNonNull(name, "name");
    return switch (name) {
      case LatencyAwarePolicy.NAME -> new LatencyAwarePolicy(objective);
      case RoundRobinPolicy.NAME -> new RoundRobinPolicy();
      case LeastOutstandingPolicy.NAME -> new LeastOutstandingPolicy();
      case PowerOfTwoChoicesPolicy.NAME -> new PowerOfTwoChoicesPolicy();
      case EndpointPickerPolicy.NAME -> new EndpointPickerPolicy();
      case PrefixAwarePolicy.NAME -> new PrefixAwarePolicy();
      default -> throw new IllegalArgumentException("Unknown routing policy '" + name + "': use one of "
          + String.join(", ", NAMES));
    };
  }
}
