package io.zerolayer.bench;

import io.zerolayer.fleet.load.ChunkArrival;
import io.zerolayer.fleet.load.RequestOutcome;
import java.io.IOException;
import java.io.Writer;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Every request of every policy's run as one CSV row (RFC 4180: a field with a comma, quote or
 * line break is quoted), times in milliseconds, {@code sent_s} from the start of that policy's
 * load, empty fields where a figure does not exist (no token, no final chunk, no prediction). The
 * predictions are those of the request's first decision (epoch 1), as the router recorded them,
 * so that each can be set against the latency and time to the first token the client measured;
 * {@code decisions} lists every attempt the router decided for the request, in epoch order
 * ({@code epoch instance outcome @seconds}, the decision's time from the start of the load,
 * separated by {@code ;}, and after a cut-over the kind of stall that moved the sequence, as
 * {@link CutoverCause} names it), which says where a request that timed out without a token was
 * waiting, why each attempt was given up, and whether it was moved during a fault.
 */
final class OutcomeCsv {

  static final String HEADER = "policy,sequence_id,measured,sent_s,status,routing,band,prompt_tokens,"
      + "max_output_tokens,concurrency,latency_ms,ttft_ms,output_tokens,token_interval_std_ms,max_epoch,instances,"
      + "reason,predicted_ttft_ms,predicted_latency_ms,decisions";

  private OutcomeCsv() {
  }

  static void write(final List<PolicyRun> runs, final Writer out) throws IOException {
    out.write(HEADER);
    out.write("\r\n");
    for (final PolicyRun run : runs) {
      final Map<String, List<Dispatch>> decisions = run.dispatches().stream()
          .sorted(Comparator.comparingInt(Dispatch::epoch))
          .collect(Collectors.groupingBy(Dispatch::sequenceId));
      for (final RequestOutcome outcome : run.outcomes()) {
        out.write(row(run, outcome, decisions.getOrDefault(outcome.sequenceId(), List.of())));
        out.write("\r\n");
      }
    }
  }

  /** @param decisions the request's decisions, in epoch order; none when the log has none */
  static String row(final PolicyRun run, final RequestOutcome o, final List<Dispatch> decisions) {
    final Dispatch first = decisions.stream().filter(d -> d.epoch() == 1).findFirst().orElse(null);
    final long sent = run.sentMs(o);
    final OptionalDouble std = o.tokenIntervalStddevMs();
    final int maxEpoch = o.chunks().stream().mapToInt(ChunkArrival::epoch).max().orElse(0);
    return String.join(",",
        field(run.policy()), field(o.sequenceId()), Boolean.toString(sent >= run.measureFromMs()),
        String.format(Locale.ROOT, "%.3f", (sent - run.loadStartMs()) / 1000.0), o.status().name(),
        o.routing() == null ? "" : o.routing().name(), o.band().name(), Integer.toString(o.promptTokens()),
        Integer.toString(o.maxOutputTokens()), Integer.toString(o.concurrency()),
        Long.toString(o.latency().toMillis()),
        o.timeToFirstToken().map(t -> Long.toString(t.toMillis())).orElse(""),
        Integer.toString(o.outputTokens()),
        std.isPresent() ? String.format(Locale.ROOT, "%.2f", std.getAsDouble()) : "",
        maxEpoch == 0 ? "" : Integer.toString(maxEpoch),
        field(String.join(";", o.instances())), field(o.reason() == null ? "" : o.reason()),
        milliseconds(first == null ? null : first.predictedTtftMs()),
        milliseconds(first == null ? null : first.predictedLatencyMs()),
        field(decisions.stream().map(d -> attempt(run, d)).collect(Collectors.joining(";"))));
  }

  private static String attempt(final PolicyRun run, final Dispatch decision) {
    final String attempt = decision.epoch() + " " + decision.instanceId() + " " + decision.outcome()
        + String.format(Locale.ROOT, " @%.3f", (decision.atMs() - run.loadStartMs()) / 1000.0);
    return decision.isCutover() ? attempt + " " + CutoverCause.of(decision.reason()).label() : attempt;
  }

  private static String milliseconds(final Double value) {
    return value == null ? "" : String.format(Locale.ROOT, "%.1f", value);
  }

  static String field(final String value) {
    if (value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r")) {
      return '"' + value.replace("\"", "\"\"") + '"';
    }
    return value;
  }
}
