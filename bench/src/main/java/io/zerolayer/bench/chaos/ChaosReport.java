package io.zerolayer.bench.chaos;

import io.zerolayer.bench.Percentiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The faults a chaos run made, how long each took to repair and to serve again, and what the clients were handed. */
public final class ChaosReport {

  private final List<FaultRecord> faults;
  private final LoadVerdict verdict;

  ChaosReport(final List<FaultRecord> faults, final LoadVerdict verdict) {
    this.faults = List.copyOf(faults);
    this.verdict = verdict;
  }

  /** Sequences lost, duplicated, reordered, spliced or left unanswered, plus faults after which nothing was served. */
  public int violations() {
    return verdict.violations() + (int) faults.stream().filter(fault -> fault.servingAgainMs() < 0).count();
  }

  public int faults() {
    return faults.size();
  }

  public int sequences() {
    return verdict.sent();
  }

  /** The table per kind of fault and the verdict. */
  public void print(final PrintStream out) {
    out.println();
    out.printf("%-22s %6s  %-25s  %-25s%n", "fault", "count", "repaired, ms (p50/p99/max)",
        "serving again, ms (p50/p99/max)");
    for (final FaultKind kind : FaultKind.values()) {
      final List<FaultRecord> ofKind = faults.stream().filter(fault -> fault.kind() == kind).toList();
      if (!ofKind.isEmpty()) {
        out.printf("%-22s %6d  %-25s  %-25s%n", kind.label(), ofKind.size(),
            spread(ofKind.stream().map(FaultRecord::repairedMs).toList()),
            spread(ofKind.stream().map(FaultRecord::servingAgainMs).toList()));
      }
    }
    out.printf("%-22s %6d  %-25s  %-25s%n", "all", faults.size(),
        spread(faults.stream().map(FaultRecord::repairedMs).toList()),
        spread(faults.stream().map(FaultRecord::servingAgainMs).toList()));
    out.println();
    out.printf("%,d sequences: %d lost, %d duplicated, %d reordered, %d spliced, %d unanswered"
        + " (%d throttled at the door before any token and sent again after their retry time); "
        + "%d faults after which nothing was served%n", verdict.sent(), verdict.lost(), verdict.duplicated(),
        verdict.reordered(), verdict.spliced(), verdict.unanswered().size(), verdict.resent(),
        faults.stream().filter(fault -> fault.servingAgainMs() < 0).count());
    verdict.unanswered().forEach(sequence -> out.println("  unanswered " + sequence.sequenceId() + ": "
        + sequence.what()));
  }

  /** Every fault, one per line: {@code n,kind,target,at_ms,repaired_ms,serving_again_ms}. */
  public void writeCsv(final Path file) throws IOException {
    final List<String> lines = new ArrayList<>(List.of("n,kind,target,at_ms,repaired_ms,serving_again_ms"));
    for (int n = 0; n < faults.size(); n++) {
      final FaultRecord fault = faults.get(n);
      lines.add(String.join(",", Arrays.asList(Integer.toString(n + 1), fault.kind().label(),
          '"' + fault.target() + '"', Long.toString(fault.atMs()), Long.toString(fault.repairedMs()),
          Long.toString(fault.servingAgainMs()))));
    }
    Files.write(file, lines);
  }

  private static String spread(final List<Long> values) {
    final List<Long> known = values.stream().filter(ms -> ms >= 0).toList();
    if (known.isEmpty()) {
      return "-";
    }
    final Percentiles percentiles = new Percentiles(known);
    return String.format("%,d / %,d / %,d", percentiles.at(50), percentiles.at(99), percentiles.max());
  }
}
