package io.zerolayer.bench.chaos;

import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.tokenbuffer.TokenBufferTopology;
import java.util.List;
import java.util.Locale;

/** What a chaos run does to the pipeline, one fault at a time. */
enum FaultKind {
  /** {@code kill -9} of the broker leading a partition of the token log, then its restart on its data. */
  LEADER_OF_TOKENS,
  /** The same for the decisions topic. */
  LEADER_OF_DECISIONS,
  /** The same for the changelog of token-buffer's token store. */
  LEADER_OF_TOKEN_STORE,
  ROUTER,
  TOKEN_BUFFER,
  HEATMAP_STREAMS,
  WORKER,
  /** The schema registry stopped with {@code kill -STOP}, then resumed. */
  REGISTRY_PAUSE;

  /**
   * The order faults are made in, over and over: the first six kill a leader's broker, each app
   * once and pause the registry, so a short run meets every kind of process; six in eleven are
   * broker faults.
   */
  private static final List<FaultKind> CYCLE = List.of(LEADER_OF_TOKENS, ROUTER, TOKEN_BUFFER, HEATMAP_STREAMS,
      WORKER, REGISTRY_PAUSE, LEADER_OF_DECISIONS, LEADER_OF_TOKEN_STORE, LEADER_OF_TOKENS, LEADER_OF_DECISIONS,
      LEADER_OF_TOKEN_STORE);

  /** The {@code n}-th fault of a run, from 0. */
  static FaultKind nth(final int n) {
    return CYCLE.get(n % CYCLE.size());
  }

  /** How it is named in a report: {@code leader-of-tokens}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The app a fault of this kind kills. */
  AppRole role() {
    return switch (this) {
      case ROUTER -> AppRole.ROUTER;
      case TOKEN_BUFFER -> AppRole.TOKEN_BUFFER;
      case HEATMAP_STREAMS -> AppRole.HEATMAP_STREAMS;
      case WORKER -> AppRole.WORKER;
      default -> throw new IllegalStateException(this + " kills no app");
    };
  }

  /** The topic of which a broker fault kills a partition's leader. */
  String topic(final TopicCatalogue catalogue) {
    return switch (this) {
      case LEADER_OF_TOKENS -> catalogue.name(Topics.TOKENS);
      case LEADER_OF_DECISIONS -> catalogue.name(Topics.DECISIONS);
      case LEADER_OF_TOKEN_STORE -> PipelineNames.tokenBufferApplicationId(catalogue) + "-"
          + TokenBufferTopology.TOKEN_STORE + "-changelog";
      default -> throw new IllegalStateException(this + " kills no broker");
    };
  }
}
