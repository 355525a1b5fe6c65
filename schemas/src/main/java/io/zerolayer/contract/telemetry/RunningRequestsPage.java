package io.zerolayer.contract.telemetry;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * The page a worker in front of a real inference server serves at {@link #PATH}: for each
 * request it has running there (begun, not ended), the tokens it may still generate (its output
 * limit less the tokens streamed so far), as one gauge sample labelled with the sequence id, in
 * the Prometheus text format. No server's own metrics give this; telemetry-ingest reads it into
 * {@code InstanceTelemetry.runningTokensToLimit} when a scrape target names the page, so that
 * routers can tell when a full batch frees a slot. A page with no sample says nothing runs.
 * The page is not meant for Prometheus: its series come and go with every request.
 */
public final class RunningRequestsPage {

  /** Where a worker serves the page, on its HTTP port. */
  public static final String PATH = "/running";
  /** The gauge, one sample per running request. */
  public static final String METRIC = "zerolayer_worker_tokens_to_limit";
  /** The label that names each sample's sequence. */
  public static final String SEQUENCE_LABEL = "sequence";

  private RunningRequestsPage() {
  }

  /** The page for the tokens to limit of each running request, by sequence id. */
  public static String render(final Map<String, Integer> tokensToLimit) {
    requireNonNull(tokensToLimit, "tokensToLimit");
    final StringBuilder page = new StringBuilder()
        .append("# HELP ").append(METRIC)
        .append(" Tokens each request running on the inference server may still generate: its output limit less"
            + " the tokens streamed so far.\n")
        .append("# TYPE ").append(METRIC).append(" gauge\n");
    tokensToLimit.forEach((sequenceId, tokens) -> page.append(METRIC).append('{').append(SEQUENCE_LABEL)
        .append("=\"").append(escaped(sequenceId)).append("\"} ").append(tokens.intValue()).append('\n'));
    return page.toString();
  }

  private static String escaped(final String labelValue) {
    return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
