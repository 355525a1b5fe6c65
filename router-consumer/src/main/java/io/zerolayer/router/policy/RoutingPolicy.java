package io.zerolayer.router.policy;

import java.util.List;

/**
 * Ranks the instances a request may go to. Implementations are stateless or thread-confined to
 * one router thread, and never block.
 */
public interface RoutingPolicy {

  /**
   * @return usable instances, best first; empty when none can take the request now
   */
  List<Candidate> rank(RequestProfile request, Heatmap heatmap);

  /** The policy's name, as it appears in decisions and benchmark tables. */
  String name();
}
