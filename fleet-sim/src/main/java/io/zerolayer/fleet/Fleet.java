package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A set of simulated instances spread over zones. */
public final class Fleet implements AutoCloseable {

  /** The model every simulated instance serves. */
  public static final String MODEL = "sim-8b";

  private final List<SimulatedInstance> instances;
  private final Map<String, SimulatedGpu> gpus;

  private Fleet(final List<SimulatedInstance> instances, final Map<String, SimulatedGpu> gpus) {
    this.instances = instances;
    this.gpus = gpus;
  }

  /**
   * Starts {@code size} warm instances named {@code gpu-0..}, round-robin over {@code zones}.
   */
  public static Fleet start(final ClusterSettings cluster, final int size, final List<String> zones,
      final GpuProfile profile, final MeterRegistry meters) {
    return start(cluster, "gpu-", size, zones, profile, meters);
  }

  /**
   * Starts {@code size} warm instances named {@code <idPrefix>0..}, round-robin over {@code zones}.
   */
  public static Fleet start(final ClusterSettings cluster, final String idPrefix, final int size,
      final List<String> zones, final GpuProfile profile, final MeterRegistry meters) {
    return start(cluster, idPrefix, size, zones, profile, meters, Set.of());
  }

  /**
   * Starts {@code size} instances named {@code <idPrefix>0..}, round-robin over {@code zones};
   * those in {@code coldIds} start cold (loading weights), the others warm.
   *
   * @throws IllegalArgumentException when a cold id is not one of the fleet's
   */
  public static Fleet start(final ClusterSettings cluster, final String idPrefix, final int size,
      final List<String> zones, final GpuProfile profile, final MeterRegistry meters, final Set<String> coldIds) {
    return start(cluster, idPrefix, size, zones, profile, meters, coldIds, MODEL);
  }

  /**
   * As {@link #start(ClusterSettings, String, int, List, GpuProfile, MeterRegistry, Set)}, every
   * instance serving {@code model}.
   */
  public static Fleet start(final ClusterSettings cluster, final String idPrefix, final int size,
      final List<String> zones, final GpuProfile profile, final MeterRegistry meters, final Set<String> coldIds,
      final String model) {
    return start(cluster, idPrefix, size, zones, List.of(profile), meters, coldIds, model);
  }

  /**
   * As {@link #start(ClusterSettings, String, int, List, GpuProfile, MeterRegistry, Set, String)},
   * a mixed fleet: instance {@code i} has {@code profiles[i % profiles.size()]}, its class
   * included.
   */
  public static Fleet start(final ClusterSettings cluster, final String idPrefix, final int size,
      final List<String> zones, final List<GpuProfile> profiles, final MeterRegistry meters,
      final Set<String> coldIds, final String model) {
    if (profiles.isEmpty()) {
      throw new IllegalArgumentException("A fleet needs at least one instance profile");
    }
    requireNonNull(coldIds, "coldIds");
    requireNonNull(model, "model");
    final List<String> ids = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ids.add(idPrefix + i);
    }
    if (!ids.containsAll(coldIds)) {
      throw new IllegalArgumentException("Cold instances " + coldIds + " are not all in this fleet; it has " + ids);
    }
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    final List<SimulatedInstance> instances = new ArrayList<>();
    final Map<String, SimulatedGpu> gpus = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      final String id = ids.get(i);
      final GpuProfile profile = profiles.get(i % profiles.size());
      final SimulatedGpu gpu = new SimulatedGpu(id, zones.get(i % zones.size()), model, profile,
          !coldIds.contains(id));
      instances.add(new SimulatedInstance(gpu, id, profile, cluster, serdes, meters));
      gpus.put(id, gpu);
    }
    return new Fleet(instances, gpus);
  }

  /** The instance ids. */
  public List<String> instanceIds() {
    return List.copyOf(gpus.keySet());
  }

  /** The zones the instances run in, in the order they were first used. */
  public List<String> zones() {
    return gpus.values().stream().map(SimulatedGpu::zone).distinct().toList();
  }

  /** The zone an instance runs in. */
  public String zoneOf(final String instanceId) {
    return gpu(instanceId).zone();
  }

  /** The ids of the instances in {@code zone}; empty when none runs there. */
  public List<String> instancesIn(final String zone) {
    return gpus.values().stream().filter(gpu -> gpu.zone().equals(zone)).map(SimulatedGpu::instanceId).toList();
  }

  /** One instance's simulated GPU, for fault injection. */
  public SimulatedGpu gpu(final String instanceId) {
    final SimulatedGpu gpu = gpus.get(instanceId);
    if (gpu == null) {
      throw new IllegalArgumentException("No instance " + instanceId + " in this fleet; it has " + instanceIds());
    }
    return gpu;
  }

  @Override
  public void close() {
    instances.forEach(SimulatedInstance::close);
  }
}
