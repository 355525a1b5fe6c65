package io.zerolayer.cli;

import io.zerolayer.bench.FleetShape;
import io.zerolayer.bench.Workload;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.fleet.load.PromptMix;
import io.zerolayer.fleet.load.PromptWriter;
import io.zerolayer.fleet.load.TokenRange;
import io.zerolayer.fleet.load.TraceReplay;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** The fleet and workload options of {@code zerolayer bench}: what every policy is given. */
final class BenchLoadOptions {

  /** Trace token counts are clamped to what the simulated fleet on one machine can serve. */
  static final TokenRange TRACE_PROMPT_TOKENS = new TokenRange(16, 3000);
  static final TokenRange TRACE_OUTPUT_TOKENS = new TokenRange(8, 512);

  @Option(names = "--instances", defaultValue = "6", description = "Simulated instances. Default: ${DEFAULT-VALUE}.")
  int instances;

  @Option(names = "--zones", defaultValue = "3", description = "Zones the instances spread over. Default: "
      + "${DEFAULT-VALUE}.")
  int zones;

  @Option(names = "--classes", split = ",", defaultValue = "fast,slow",
      description = "Instance classes taken in turn (standard, fast, slow; slow has 2.5 times fast's prefill and"
          + " decode step, half its batch). Default: ${DEFAULT-VALUE}.")
  List<String> classes;

  @Option(names = "--cold", split = ",", description = "Instances that start cold, e.g. gpu-5. Default: none.")
  List<String> cold = new ArrayList<>();

  @Option(names = "--users", split = ",", defaultValue = "16,32,48,64",
      description = "Closed-loop users in each step, stepped up. Default: ${DEFAULT-VALUE}.")
  List<Integer> users;

  @Option(names = "--step", defaultValue = "25s", converter = DurationConverter.class,
      description = "How long each step of users lasts. Default: ${DEFAULT-VALUE}.")
  Duration step;

  @Option(names = "--think", defaultValue = "500ms", converter = DurationConverter.class,
      description = "What a user waits between an answer and its next request. Default: ${DEFAULT-VALUE}.")
  Duration think;

  @Option(names = "--timeout", defaultValue = "30s", converter = DurationConverter.class,
      description = "A request without its final chunk by then is an error. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(names = "--warmup", defaultValue = "20s", converter = DurationConverter.class,
      description = "The start of each load, counted in no figure. Default: ${DEFAULT-VALUE}.")
  Duration warmup;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the workload. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--trace", description = "Replay this trace instead of closed-loop users: the Azure LLM inference"
      + " trace 2023's CSV or a Mooncake trace's JSON lines, told apart by content, e.g."
      + " ../../shared/traces/mooncake-synthetic.jsonl from cli.")
  Path trace;

  @Option(names = "--trace-speedup", defaultValue = "1",
      description = "How many times faster than recorded the trace is replayed. Default: ${DEFAULT-VALUE}.")
  double traceSpeedup;

  @Option(names = "--trace-requests", defaultValue = "500",
      description = "Requests replayed. Default: ${DEFAULT-VALUE}.")
  int traceRequests;

  @Option(names = "--trace-from", defaultValue = "1",
      description = "The trace's request the replay starts at, counted from 1; arrival times count from it."
          + " Default: ${DEFAULT-VALUE}.")
  int traceFrom;

  FleetShape fleet() {
    return new FleetShape(instances, zones, Set.copyOf(cold), classes.stream().map(GpuProfile::named).toList());
  }

  Workload workload() throws IOException {
    if (trace == null) {
      return new Workload.ClosedLoop(PromptMix.standard(seed), users, step, think, timeout);
    }
    if (traceFrom < 1) {
      throw new IllegalArgumentException("--trace-from counts the trace's requests from 1, got " + traceFrom);
    }
    return new Workload.Trace(TraceReplay.read(trace, new TraceReplay.Settings(traceSpeedup, traceFrom - 1,
        traceRequests, TRACE_PROMPT_TOKENS, TRACE_OUTPUT_TOKENS, seed), new PromptWriter()), timeout);
  }
}
