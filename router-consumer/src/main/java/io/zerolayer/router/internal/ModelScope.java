package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.routing.RoutingReasons;
import io.zerolayer.router.policy.Heatmap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which instances may serve a request: those whose heatmap row serves the model it names, or
 * any instance when it names none. The request path and the stall path both pick within it.
 */
final class ModelScope {

  /** Null: any instance. */
  private final String model;

  private ModelScope(final String model) {
    this.model = model;
  }

  /** The scope of a request naming {@code model}; a null or blank model is any instance. */
  static ModelScope of(final String model) {
    return new ModelScope(model == null || model.isBlank() ? null : model);
  }

  /** The heatmap cut down to the instances in scope. */
  Heatmap applyTo(final Heatmap heatmap) {
    return model == null ? heatmap : heatmap.servingModel(model);
  }

  /**
   * Why the request cannot be served as the fleet stands: no row of the heatmap, in any state,
   * serves its model. Empty when one does, or when the heatmap knows no instance at all: an empty
   * fleet says nothing about which models it will serve, so that request is throttled as ever.
   */
  Optional<String> rejection(final Heatmap heatmap) {
    if (model == null || heatmap.all().stream().anyMatch(row -> model.equals(row.getModel()))
        || heatmap.rows().isEmpty()) {
      return Optional.empty();
    }
    final Set<String> served = heatmap.all().stream().map(InstanceScore::getModel)
        .collect(Collectors.toCollection(TreeSet::new));
    return Optional.of(RoutingReasons.modelNotServed(model, served));
  }
}
