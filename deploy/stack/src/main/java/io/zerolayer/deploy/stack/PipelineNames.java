package io.zerolayer.deploy.stack;

import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import java.util.Map;

/**
 * The application ids and consumer group the in-JVM pipeline gives its apps: each app's own
 * default, with the catalogue's prefix, so deployments sharing a cluster stay apart. A second
 * instance of an app joins the pipeline's under the same name.
 */
public final class PipelineNames {

  private PipelineNames() {
  }

  public static String heatmapApplicationId(final TopicCatalogue catalogue) {
    return catalogue.prefix() + new HeatmapConfig(Map.of()).applicationId();
  }

  public static String tokenBufferApplicationId(final TopicCatalogue catalogue) {
    return catalogue.prefix() + new TokenBufferConfig(Map.of()).applicationId();
  }

  public static String routerGroup(final TopicCatalogue catalogue) {
    return catalogue.prefix() + new RouterConfig(Map.of()).groupId();
  }
}
