package io.zerolayer.fleet.fault;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.SimulatedGpu;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** What a {@link FaultInjector} can hit: instances by id and zones by name. */
public interface FaultTargets {

  /** The GPU of the instance {@code instanceId}; empty when there is no such instance. */
  Optional<SimulatedGpu> instance(String instanceId);

  /** The GPUs of the instances in {@code zone}; empty when no instance runs there. */
  List<SimulatedGpu> zone(String zone);

  /** The instances of a running fleet. */
  static FaultTargets of(final Fleet fleet) {
    requireNonNull(fleet, "fleet");
    return new FaultTargets() {
      @Override
      public Optional<SimulatedGpu> instance(final String instanceId) {
        return fleet.instanceIds().contains(instanceId) ? Optional.of(fleet.gpu(instanceId)) : Optional.empty();
      }

      @Override
      public List<SimulatedGpu> zone(final String zone) {
        return fleet.instancesIn(zone).stream().map(fleet::gpu).toList();
      }
    };
  }

  /** These GPUs, each under its own instance id and zone. */
  static FaultTargets of(final Collection<SimulatedGpu> gpus) {
    final List<SimulatedGpu> all = List.copyOf(gpus);
    return new FaultTargets() {
      @Override
      public Optional<SimulatedGpu> instance(final String instanceId) {
        return all.stream().filter(gpu -> gpu.instanceId().equals(instanceId)).findFirst();
      }

      @Override
      public List<SimulatedGpu> zone(final String zone) {
        return all.stream().filter(gpu -> gpu.zone().equals(zone)).toList();
      }
    };
  }
}
