package io.zerolayer.fleet;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.runtime.ClusterSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A set of simulated instances spread over zones. */
public final class Fleet implements AutoCloseable {

  private final List<SimulatedInstance> instances;
  private final List<String> ids;
  private final Map<String, SimulatedGpu> gpus;

  private Fleet(final List<SimulatedInstance> instances, final List<String> ids, final Map<String, SimulatedGpu> gpus) {
    this.instances = instances;
    this.ids = List.copyOf(ids);
    this.gpus = Map.copyOf(gpus);
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
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    final List<SimulatedInstance> instances = new ArrayList<>();
    final List<String> ids = new ArrayList<>();
    final Map<String, SimulatedGpu> gpus = new HashMap<>();
    for (int i = 0; i < size; i++) {
      final String id = idPrefix + i;
      final SimulatedGpu gpu = new SimulatedGpu(id, zones.get(i % zones.size()), "sim-8b", profile, true);
      instances.add(new SimulatedInstance(gpu, id, profile, cluster, serdes, meters));
      ids.add(id);
      gpus.put(id, gpu);
    }
    return new Fleet(instances, ids, gpus);
  }

  /** The instance ids. */
  public List<String> instanceIds() {
    return ids;
  }

  /** One instance's simulated GPU, for fault injection. */
  public SimulatedGpu gpu(final String instanceId) {
    final SimulatedGpu gpu = gpus.get(instanceId);
    if (gpu == null) {
      throw new IllegalArgumentException("No instance " + instanceId + " in this fleet; it has " + ids);
    }
    return gpu;
  }

  @Override
  public void close() {
    instances.forEach(SimulatedInstance::close);
  }
}
