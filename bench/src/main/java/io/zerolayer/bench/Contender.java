package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.router.policy.RoundRobinPolicy;
import io.zerolayer.router.policy.RoutingPolicies;
import io.zerolayer.router.policy.RoutingPolicy;
import java.util.List;
import java.util.stream.Stream;

/**
 * One column of the policy benchmark: a routing policy, with token-buffer's cut-over as
 * Zerolayer runs it, or without (spelled {@code <policy>/no-cutover}) as the balancer the
 * policy imitates runs, which resumes no stalled or failed stream: nginx, a gateway's picker.
 *
 * @param policy the routing policy's name
 * @param cutover whether stalled and failed attempts are handed to a backup
 */
public record Contender(String policy, boolean cutover) {

  static final String NO_CUTOVER = "/no-cutover";

  /**
   * Zerolayer, each baseline as it runs without Zerolayer (the control groups), then each
   * baseline with Zerolayer's cut-over, which shows what placement alone is worth.
   */
  public static final List<String> DEFAULT = Stream.concat(Stream.of(RoutingPolicies.DEFAULT),
      Stream.concat(baselines().map(name -> name + NO_CUTOVER), baselines())).toList();

  /** Every policy once, Zerolayer's with cut-over and round-robin's without, so both modes are exercised. */
  public static final List<String> SMOKE = Stream.concat(Stream.of(RoutingPolicies.DEFAULT),
      baselines().map(name -> name.equals(RoundRobinPolicy.NAME) ? name + NO_CUTOVER : name)).toList();

  public Contender {
    requireNonNull(policy, "policy");
    RoutingPolicies.named(policy);
  }

  /**
   * The contender a label names, e.g. {@code p2c} or {@code round-robin/no-cutover}.
   *
   * @throws IllegalArgumentException for an unknown policy; the message lists the names
   */
  public static Contender parse(final String label) {
    requireNonNull(label, "label");
    return label.endsWith(NO_CUTOVER)
        ? new Contender(label.substring(0, label.length() - NO_CUTOVER.length()), false)
        : new Contender(label, true);
  }

  /** How tables, charts and the CSV name it. */
  public String label() {
    return cutover ? policy : policy + NO_CUTOVER;
  }

  /** The label as it may stand in topic names and sequence ids. */
  String namePart() {
    return label().replace('/', '-');
  }

  /** A new instance of its routing policy. */
  RoutingPolicy newPolicy() {
    return RoutingPolicies.named(policy);
  }

  private static Stream<String> baselines() {
    return RoutingPolicies.NAMES.stream().filter(name -> !name.equals(RoutingPolicies.DEFAULT));
  }
}
