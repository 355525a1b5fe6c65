package io.zerolayer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.bench.PolicyBenchPlan;
import io.zerolayer.bench.Workload;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

class BenchCommandTest {

  @Test
  void shouldRunEveryPolicyOnClosedLoopUsersWithEveryFaultByDefault() throws Exception {
    final PolicyBenchPlan plan = parse("bench").plan();

    assertThat(plan.policies()).containsExactly("zerolayer", "round-robin/no-cutover",
        "least-outstanding/no-cutover", "p2c/no-cutover", "epp/no-cutover", "prefix-aware/no-cutover", "round-robin",
        "least-outstanding", "p2c", "epp", "prefix-aware");
    assertThat(plan.workload()).isInstanceOf(Workload.ClosedLoop.class);
    assertThat(plan.faultsText()).isEqualTo("scenario all");
    assertThat(plan.rehearsal()).isTrue();
    assertThat(plan.rounds()).isEqualTo(1);
    assertThat(plan.order(0)).isEqualTo(plan.policies());
    assertThat(plan.faults().toString()).contains("oom@", "zone-loss@", "cold@", "stall@");
  }

  @Test
  void shouldTakeAFaultScheduleInsteadOfTheScenario() throws Exception {
    final PolicyBenchPlan plan = parse("bench", "--policies", "p2c,zerolayer", "--users", "2,4", "--step", "10s",
        "--warmup", "5s", "--faults", "oom@8s:gpu-1, recover@12s:gpu-1").plan();

    assertThat(plan.policies()).containsExactly("p2c", "zerolayer");
    assertThat(plan.workload().length()).isEqualTo(Duration.ofSeconds(20));
    assertThat(plan.faults().toString()).isEqualTo("oom@8s:gpu-1, recover@12s:gpu-1");
    assertThat(plan.faultsText()).isEqualTo("--faults");
    assertThat(parse("bench", "--no-rehearsal").plan().rehearsal()).isFalse();
  }

  @Test
  void shouldTurnTheOrderOfThePoliciesInEachRound() throws Exception {
    final PolicyBenchPlan plan = parse("bench", "--policies", "zerolayer,epp/no-cutover,round-robin,p2c,epp,"
        + "least-outstanding", "--rounds", "3").plan();

    assertThat(plan.order(0)).containsExactly("zerolayer", "epp/no-cutover", "round-robin", "p2c", "epp",
        "least-outstanding");
    assertThat(plan.order(1)).containsExactly("round-robin", "p2c", "epp", "least-outstanding", "zerolayer",
        "epp/no-cutover");
    assertThat(plan.order(2)).containsExactly("epp", "least-outstanding", "zerolayer", "epp/no-cutover",
        "round-robin", "p2c");
    assertThatThrownBy(() -> parse("bench", "--rounds", "0").plan())
        .isInstanceOf(ParameterException.class).hasMessageContaining("one or more rounds, got 0");
  }

  @Test
  void shouldRunTheSmokePlanBriefly() throws Exception {
    final PolicyBenchPlan plan = parse("bench", "--smoke", "--instances", "50").plan();

    assertThat(plan.fleet().instances()).isEqualTo(3);
    assertThat(plan.policies()).containsExactly("zerolayer", "round-robin/no-cutover", "least-outstanding", "p2c",
        "epp", "prefix-aware");
    assertThat(plan.workload().length()).isLessThanOrEqualTo(Duration.ofSeconds(15));
    assertThat(plan.faults().entries()).hasSize(2);
    assertThat(plan.rehearsal()).isFalse();
  }

  @Test
  void shouldRefuseAnUnknownPolicyOrScenarioOrAWarmUpAsLongAsTheLoad() {
    assertThatThrownBy(() -> parse("bench", "--policies", "fastest").plan())
        .isInstanceOf(ParameterException.class).hasMessageContaining("Unknown routing policy 'fastest'");
    assertThatThrownBy(() -> parse("bench", "--policies", "fastest/no-cutover").plan())
        .isInstanceOf(ParameterException.class).hasMessageContaining("Unknown routing policy 'fastest'");
    assertThatThrownBy(() -> parse("bench", "--scenario", "meteor").plan())
        .isInstanceOf(ParameterException.class).hasMessageContaining("steady, oom, zone-loss, cold-start, stalls, all");
    assertThatThrownBy(() -> parse("bench", "--users", "2", "--step", "10s", "--warmup", "10s").plan())
        .isInstanceOf(ParameterException.class).hasMessageContaining("must be shorter than the load");
  }

  @Test
  void shouldEchoTheCommandLineForTheCaption() {
    final ParseResult result = new CommandLine(new ZerolayerCli()).parseArgs("bench", "--scenario", "oom",
        "--faults", "oom@1s:gpu-1, recover@2s:gpu-1");

    assertThat(TypedCommandLine.of(result.subcommand().commandSpec()))
        .isEqualTo("zerolayer bench --scenario oom --faults 'oom@1s:gpu-1, recover@2s:gpu-1'");
  }

  private static BenchCommand parse(final String... args) {
    final ParseResult result = new CommandLine(new ZerolayerCli()).parseArgs(args);
    return result.subcommand().commandSpec().commandLine().getCommand();
  }
}
