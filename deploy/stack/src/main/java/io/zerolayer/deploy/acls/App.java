package io.zerolayer.deploy.acls;

/** The apps that connect to Kafka, each under a principal of its own. */
public enum App {
  HEATMAP_STREAMS("heatmap-streams"),
  TOKEN_BUFFER("token-buffer"),
  ROUTER("router"),
  WORKER("worker"),
  TELEMETRY_INGEST("telemetry-ingest"),
  GATEWAY("gateway");

  private final String label;

  App(final String label) {
    this.label = label;
  }

  /** The app's name on the command line, and its principal unless told otherwise: {@code User:<label>}. */
  public String label() {
    return label;
  }

  /** The app of this label; the error lists the labels. */
  public static App of(final String label) {
    for (final App app : values()) {
      if (app.label.equals(label)) {
        return app;
      }
    }
    throw new IllegalArgumentException("No app is called '" + label + "'; the apps are heatmap-streams, token-buffer,"
        + " router, worker, telemetry-ingest and gateway");
  }
}
