package io.zerolayer.fleet;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.runtime.ClusterSettings;
import java.util.ArrayList;
import java.util.List;

/** A set of simulated instances spread over zones. */
public final class Fleet implements AutoCloseable {

  private final List<SimulatedInstance> instances;
  private final List<String> ids;

  private Fleet(final List<SimulatedInstance> instances, final List<String> ids) {
    this.instances = instances;
    this.ids = List.copyOf(ids);
  }

  /**
   * Starts {@code size} warm instances named {@code gpu-0..}, round-robin over {@code zones}.
   */
  public static Fleet start(final ClusterSettings cluster, final int size, final List<String> zones,
      final GpuProfile profile, final MeterRegistry meters) {
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    final List<SimulatedInstance> instances = new ArrayList<>();
    final List<String> ids = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      final String id = "gpu-" + i;
      final SimulatedGpu gpu = new SimulatedGpu(id, zones.get(i % zones.size()), "sim-8b", profile, true);
      instances.add(new SimulatedInstance(gpu, id, profile, cluster, serdes, meters));
      ids.add(id);
    }
    return new Fleet(instances, ids);
  }

  /** The instance ids. */
  public List<String> instanceIds() {
    return ids;
  }

  @Override
  public void close() {
    instances.forEach(SimulatedInstance::close);
  }
}
