package io.zerolayer.bench.chaos;

import io.zerolayer.fleet.FleetApp;
import io.zerolayer.fleet.FleetConfig;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.RouterApp;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.tokenbuffer.TokenBufferApp;
import io.zerolayer.tokenbuffer.TokenBufferConfig;

/** The apps a chaos run starts as processes of their own, each with its main class and HTTP port setting. */
enum AppRole {
  HEATMAP_STREAMS("heatmap-streams", HeatmapApp.class, HeatmapConfig.HTTP_PORT),
  TOKEN_BUFFER("token-buffer", TokenBufferApp.class, TokenBufferConfig.HTTP_PORT),
  ROUTER("router", RouterApp.class, RouterConfig.HTTP_PORT),
  WORKER("worker", FleetApp.class, FleetConfig.HTTP_PORT);

  private final String label;
  private final Class<?> mainClass;
  private final String portKey;

  AppRole(final String label, final Class<?> mainClass, final String portKey) {
    this.label = label;
    this.mainClass = mainClass;
    this.portKey = portKey;
  }

  String label() {
    return label;
  }

  Class<?> mainClass() {
    return mainClass;
  }

  String portKey() {
    return portKey;
  }
}
