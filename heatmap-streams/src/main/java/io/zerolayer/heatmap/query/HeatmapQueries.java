package io.zerolayer.heatmap.query;

import java.util.List;

/** Reads the heatmap's stores, wherever in the cluster a key is kept. Read-only. */
public interface HeatmapQueries {

  /** The answer to a lookup of one instance's data. */
  sealed interface Lookup<T> permits Found, Missing, Elsewhere, Unavailable {
  }

  /** This app instance holds the key. */
  record Found<T>(T value) implements Lookup<T> {
  }

  /** No app instance holds the key. */
  record Missing<T>() implements Lookup<T> {
  }

  /** Another app instance holds the key, at this {@code host:port}. */
  record Elsewhere<T>(String host, int port) implements Lookup<T> {
  }

  /** A store is moving (rebalance or restore); ask again shortly. */
  record Unavailable<T>(String reason) implements Lookup<T> {
  }

  /** Every published row, as this app instance has read them; empty while starting. */
  Lookup<List<InstanceView>> heatmap();

  /** One instance's current row and state machine. */
  Lookup<InstanceView> instance(String instanceId);

  /**
   * One instance's windows that start in {@code [fromMs, toMs]}.
   *
   * @param shortWindows the short windows that drive the score, else the history windows
   */
  Lookup<List<WindowView>> history(String instanceId, long fromMs, long toMs, boolean shortWindows);

  /** The health of every zone, judged from every published row. */
  Lookup<List<ZoneView>> zones();
}
