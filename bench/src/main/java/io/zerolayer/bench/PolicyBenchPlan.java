package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.fault.FaultSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What the policy benchmark runs: which policies, in order, each on the same fleet shape,
 * workload and fault schedule.
 *
 * @param policies {@link Contender} labels, run one after another
 * @param fleet the fleet each policy gets afresh
 * @param workload the requests
 * @param warmup the first part of the load, whose requests count in no figure
 * @param faults when to inject which fault, offsets from the load's start
 * @param faultsText how the schedule was chosen, for the caption ("scenario all", "--faults ...")
 * @param rehearsal whether the first policy's run is made, unmeasured, before the measured runs
 *     (again while the JIT is busy): the same workload and faults, on topics of its own, so that
 *     the compilers have finished with the code the runs use before the first measured one, which
 *     otherwise pays for it alone
 * @param rounds how many times every policy runs; each round turns the order (see {@link #order(int)}),
 *     so that no policy always has the same slot on a host whose load changes over the invocation
 */
public record PolicyBenchPlan(List<String> policies, FleetShape fleet, Workload workload, Duration warmup,
    FaultSchedule faults, String faultsText, boolean rehearsal, int rounds) {

  public PolicyBenchPlan {
    policies = List.copyOf(policies);
    requireNonNull(fleet, "fleet");
    requireNonNull(workload, "workload");
    requireNonNull(warmup, "warmup");
    requireNonNull(faults, "faults");
    requireNonNull(faultsText, "faultsText");
    if (policies.isEmpty() || new HashSet<>(policies).size() != policies.size()) {
      throw new IllegalArgumentException("Name one or more policies, each once; got " + policies);
    }
    policies.forEach(Contender::parse);
    if (warmup.isNegative() || warmup.compareTo(workload.length()) >= 0) {
      throw new IllegalArgumentException("The warm-up (" + warmup.toMillis() + " ms) must be shorter than the load ("
          + workload.length().toMillis() + " ms)");
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("Run the policies in one or more rounds, got " + rounds);
    }
  }

  /** A plan that runs every policy once, in the order given. */
  public PolicyBenchPlan(final List<String> policies, final FleetShape fleet, final Workload workload,
      final Duration warmup, final FaultSchedule faults, final String faultsText, final boolean rehearsal) {
    this(policies, fleet, workload, warmup, faults, faultsText, rehearsal, 1);
  }

  /**
   * The order of the policies in round {@code round} (0 first): the order given, turned left by
   * {@code round * policies / rounds} places, which spreads each policy's slots over the invocation.
   */
  public List<String> order(final int round) {
    if (round < 0 || round >= rounds) {
      throw new IllegalArgumentException("Round " + round + " is not one of 0 to " + (rounds - 1));
    }
    final List<String> turned = new ArrayList<>(policies);
    Collections.rotate(turned, -(round * policies.size() / rounds));
    return List.copyOf(turned);
  }

  /** The setup lines of the results' caption. */
  List<String> describe() {
    return List.of(
        "policies, one after another, each on its own topics with a fresh pipeline and fleet: "
            + String.join(", ", policies) + "; those marked " + Contender.NO_CUTOVER + " run with token-buffer's"
            + " cut-over off, as behind the balancer they imitate: no stalled or failed stream is resumed",
        "fleet: " + fleet,
        "workload: " + workload.describe(),
        Figure.format("warm-up: the first %.1f s of each load count in no figure", warmup.toMillis() / 1000.0),
        "faults (" + faultsText + "), from the load's start: " + (faults.isEmpty() ? "none" : faults.toString()),
        rehearsal ? Figure.format("rehearsal: the run of %s made before, unmeasured, with the same workload and"
            + " faults, again while the JIT compiled for more than %.0f %% of it (at most %d times), so that no"
            + " measured run pays for the JVMs' compilation", policies.get(0), 100 * Rehearsals.QUIET_JIT_SHARE,
            Rehearsals.MAX_REHEARSALS)
            : "no rehearsal run",
        rounds == 1 ? "one round" : rounds + " rounds, each running every policy once, in a turned order so that no"
            + " policy always runs at the same point of the invocation: " + IntStream.range(0, rounds)
                .mapToObj(r -> "round " + (r + 1) + ": " + String.join(", ", order(r)))
                .collect(Collectors.joining("; ")));
  }
}
