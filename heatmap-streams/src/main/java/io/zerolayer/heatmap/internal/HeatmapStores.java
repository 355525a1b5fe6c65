package io.zerolayer.heatmap.internal;

/**
 * The names of the heatmap's stores.
 *
 * @param instanceState per instance: latest sample, smoothed metrics, state machine, row
 * @param slices short-window slices of raw samples (window store)
 * @param history history windows (window store)
 * @param latencyModel per instance: latency model statistics
 * @param zoneState per zone: the state last reported
 * @param scoresGlobal every published row (global store)
 */
public record HeatmapStores(String instanceState, String slices, String history, String latencyModel,
    String zoneState, String scoresGlobal) {
}
