package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An immutable snapshot of the heatmap: the latest row of every instance, and what this router
 * saw itself that the rows may not show yet: the instances it just cut away from, and its own
 * requests on each instance ({@link OwnWork}, as expected at the moment of the snapshot).
 */
public final class Heatmap {

  private final Map<String, InstanceScore> rows;
  private final long version;
  private final Set<String> cutAway;
  private final PeerModels.Memo peers;
  private final Function<String, OwnWork> ownWork;
  private final long atMs;

  /**
   * @param rows rows by instance id
   * @param version increases with every update the view applied
   * @param cutAway instances this router has just cut several sequences away from: their rows may
   *     still look fine (a stalled engine reports as usual until its counters show it), so a
   *     latency-aware policy keeps new work off them while it can
   */
  public Heatmap(final Map<String, InstanceScore> rows, final long version, final Set<String> cutAway) {
    this(rows, version, cutAway, null, id -> OwnWork.NONE, 0);
  }

  /** A snapshot of the rows alone, with nothing cut away. */
  public Heatmap(final Map<String, InstanceScore> rows, final long version) {
    this(rows, version, Set.of());
  }

  private Heatmap(final Map<String, InstanceScore> rows, final long version, final Set<String> cutAway,
      final PeerModels.Memo peers, final Function<String, OwnWork> ownWork, final long atMs) {
    this.rows = Map.copyOf(requireNonNull(rows, "rows"));
    this.version = version;
    this.cutAway = Set.copyOf(requireNonNull(cutAway, "cutAway"));
    this.peers = peers == null ? new PeerModels.Memo(this.rows.values()) : peers;
    this.ownWork = requireNonNull(ownWork, "ownWork");
    this.atMs = atMs;
  }

  /** The empty heatmap, before anything was read. */
  public static Heatmap empty() {
    return new Heatmap(Map.of(), 0);
  }

  /** The same rows with these instances marked as just cut away from. */
  public Heatmap withCutAway(final Set<String> instanceIds) {
    return new Heatmap(rows, version, instanceIds, peers, ownWork, atMs);
  }

  /**
   * The same rows as this router sees them at {@code nowMs}, with its own requests on each
   * instance as {@code work} gives them (asked for an instance only when a prediction needs it, so
   * it must answer for that moment).
   */
  public Heatmap withOwnWork(final Function<String, OwnWork> work, final long nowMs) {
    return new Heatmap(rows, version, cutAway, peers, work, nowMs);
  }

  /**
   * The same snapshot with these rows in place of its own, which differ from them in load alone
   * (running and queued requests), not in their latency models.
   */
  public Heatmap withLoad(final Map<String, InstanceScore> loadedRows) {
    return new Heatmap(loadedRows, version, cutAway, peers, ownWork, atMs);
  }

  /**
   * The same snapshot with only the rows of the instances that serve {@code model}. Latency models
   * are pooled per served model, so the copy shares them with this one.
   */
  public Heatmap servingModel(final String model) {
    requireNonNull(model, "model");
    final Map<String, InstanceScore> serving = rows.entrySet().stream()
        .filter(entry -> model.equals(entry.getValue().getModel()))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    return new Heatmap(serving, version, cutAway, peers, ownWork, atMs);
  }

  public Map<String, InstanceScore> rows() {
    return rows;
  }

  public long version() {
    return version;
  }

  public Set<String> cutAway() {
    return cutAway;
  }

  /** This router's own requests on an instance; {@link OwnWork#NONE} when it knows none. */
  public OwnWork ownWork(final String instanceId) {
    return ownWork.apply(instanceId);
  }

  /**
   * How long before this snapshot's moment the instance's row was sampled; 0 for a snapshot that
   * names no moment.
   */
  public long ageMs(final InstanceScore row) {
    return atMs > 0 ? Math.max(0, atMs - row.getLastTelemetryMs()) : 0;
  }

  /** The row of one instance, or null. */
  public InstanceScore row(final String instanceId) {
    return rows.get(instanceId);
  }

  public Collection<InstanceScore> all() {
    return rows.values();
  }

  /** The pooled latency models of this snapshot's instances, worked out once per snapshot. */
  PeerModels peerModels() {
    return peers.get();
  }
}
