package io.zerolayer.heatmap.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One state change of an instance or a zone: what a {@code routing_status_changed} CloudEvent
 * reports.
 *
 * @param kind {@code instance} or {@code zone}
 * @param subject the instance or zone id
 * @param zone the zone (the subject itself for a zone)
 * @param from the state before
 * @param to the state after
 * @param reason why, for a person
 * @param metrics the values that caused it, by telemetry field name
 * @param atMs when (wall clock)
 */
public record Transition(String kind, String subject, String zone, String from, String to, String reason,
    Map<String, Double> metrics, long atMs) {

  public static final String INSTANCE = "instance";
  public static final String ZONE = "zone";

  public Transition {
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }
}
