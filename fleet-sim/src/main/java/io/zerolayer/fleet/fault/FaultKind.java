package io.zerolayer.fleet.fault;

import io.zerolayer.fleet.SimulatedGpu;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** The faults a {@link FaultSchedule} can inject, by the name the schedule spells them with. */
public enum FaultKind {

  /** The instance's KV cache runs out of memory ({@link SimulatedGpu#oom()}). */
  OOM("oom", false, SimulatedGpu::oom),
  /** The instance recovers from an OOM or a stall ({@link SimulatedGpu#recover()}). */
  RECOVER("recover", false, SimulatedGpu::recover),
  /** The instance restarts cold, losing its sequences ({@link SimulatedGpu#coldRestart()}). */
  COLD("cold", false, SimulatedGpu::coldRestart),
  /** The instance's sequences stop making progress ({@link SimulatedGpu#stall()}). */
  STALL("stall", false, SimulatedGpu::stall),
  /** The instance's sequences go on after a stall ({@link SimulatedGpu#resume()}). */
  RESUME("resume", false, SimulatedGpu::resume),
  /** The instance dies silently, as under {@code kill -9} ({@link SimulatedGpu#crash()}). */
  CRASH("crash", false, SimulatedGpu::crash),
  /** Every instance of the zone loses 15 % of its packets ({@link SimulatedGpu#loseNetwork(double)}). */
  ZONE_LOSS("zone-loss", true, gpu -> gpu.loseNetwork(FaultKind.ZONE_PACKET_LOSS)),
  /** The zone's network is whole again ({@link SimulatedGpu#restoreNetwork()}). */
  ZONE_RESTORE("zone-restore", true, SimulatedGpu::restoreNetwork);

  /** The share of packets a zone loses in a {@link #ZONE_LOSS}. */
  public static final double ZONE_PACKET_LOSS = 0.15;

  private final String spelling;
  private final boolean zoneWide;
  private final Consumer<SimulatedGpu> effect;

  FaultKind(final String spelling, final boolean zoneWide, final Consumer<SimulatedGpu> effect) {
    this.spelling = spelling;
    this.zoneWide = zoneWide;
    this.effect = effect;
  }

  /** How a schedule spells it, e.g. {@code zone-loss}. */
  public String spelling() {
    return spelling;
  }

  /** True when its target is a zone, false when it is one instance. */
  public boolean zoneWide() {
    return zoneWide;
  }

  /** Injects the fault into one GPU (for a zone-wide fault: one of the zone's). */
  public void applyTo(final SimulatedGpu gpu) {
    effect.accept(gpu);
  }

  /** The kind spelled {@code spelling}, if there is one. */
  public static Optional<FaultKind> spelled(final String spelling) {
    return Arrays.stream(values()).filter(kind -> kind.spelling.equals(spelling)).findFirst();
  }

  /** Every spelling, comma-separated, for error messages. */
  public static String spellings() {
    return Arrays.stream(values()).map(FaultKind::spelling).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return spelling;
  }
}
