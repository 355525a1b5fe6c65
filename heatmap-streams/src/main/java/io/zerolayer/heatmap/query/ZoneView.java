package io.zerolayer.heatmap.query;

import io.zerolayer.heatmap.internal.ZoneHealth;

/**
 * One zone's health.
 *
 * @param zone the zone
 * @param state {@code HEALTHY} or {@code PENALISED}
 * @param members its instances that report
 * @param networkDegraded of them, those network-degraded
 * @param reason why
 */
public record ZoneView(String zone, String state, int members, int networkDegraded, String reason) {

  static ZoneView of(final ZoneHealth.Verdict verdict) {
    return new ZoneView(verdict.zone(), verdict.state().name(), verdict.members(), verdict.networkDegraded(),
        verdict.reason());
  }
}
