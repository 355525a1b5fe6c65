package io.zerolayer.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Why a sequence was cut over, read from the router's cut-over decision, which quotes the stall
 * report of token-buffer: each kind of stall takes its own time to notice, so each has its own
 * pause.
 */
enum CutoverCause {

  /** The worker reported that the attempt failed (an engine error, a restart). */
  FAILED("failed", "the worker reported the attempt failed"),
  /** The owner still loads its weights and a warm instance can start the sequence now. */
  LOADING("loading", "is loading its weights"),
  /** The heatmap ejected the owner or put its token cadence past the cut-over threshold. */
  HEATMAP("heatmap", "ejected by the heatmap", "past the cut-over threshold"),
  /** The token rate fell more than 40 % for three checks. */
  SLOW("slow", "token rate down"),
  /** Before its first token, the attempt waited in its instance's queue far past its prediction. */
  QUEUED("queued", "queued: no first token"),
  /**
   * No token, or before the first one no word either, within a timeout; or, before the first
   * token, the owner's other streams stopped.
   */
  SILENT("silent", "no token within", "no first token", "streams stalled with no token at all"),
  OTHER("other");

  private final String label;
  private final List<String> marks;

  CutoverCause(final String label, final String... marks) {
    this.label = label;
    this.marks = List.of(marks);
  }

  /** The cause a cut-over decision's reason names; {@link #OTHER} when it names none of them. */
  static CutoverCause of(final String reason) {
    return Arrays.stream(values()).filter(cause -> cause.marks.stream().anyMatch(reason::contains)).findFirst()
        .orElse(OTHER);
  }

  /** How the table names it. */
  String label() {
    return label;
  }
}
