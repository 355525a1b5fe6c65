package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.List;

/** Predicts a request's latency on an instance from the instance's heatmap row. */
public final class LatencyPredictor {

  /** The request shape behind the queue-wait estimate until the heatmap knows the instance's own. */
  private static final int TYPICAL_INPUT_TOKENS = 256;
  private static final int TYPICAL_OUTPUT_TOKENS = 128;

  private LatencyPredictor() {
  }

  /**
   * Service time of the request itself, whose prefill covers only the prompt tokens the instance's
   * prefix cache does not hold. Once the heatmap knows how the instance's decode step
   * grows with its batch, the time to the first token comes from the TTFT model and each output
   * token after the first chunk (whose decode the TTFT model holds) takes a decode step of the
   * batch with this request in it, so a busier instance decodes slower; until then, the latency
   * model's average cost per output token is used.
   */
  public static double serviceMs(final InstanceScore row, final RequestProfile request) {
    return serviceMs(row, row.getLatencyModel(), request);
  }

  /** {@link #serviceMs(InstanceScore, RequestProfile)} with {@code model} in place of the row's own. */
  static double serviceMs(final InstanceScore row, final LatencyModel model, final RequestProfile request) {
    final int prefillTokens = request.uncachedTokens(row.getInstanceId());
    if (!knowsDecodeStep(model)) {
      return Math.max(0.0, model.getLatencyInterceptMs()
          + model.getLatencyPerInputTokenMs() * prefillTokens
          + model.getLatencyPerOutputTokenMs() * expectedOutputTokens(model, request));
    }
    final double stepMs = tpotMs(row, model);
    final double outputTokens = expectedOutputTokens(model, request);
    final double afterFirstChunk = Math.max(0.0, outputTokens - Math.max(0.0, model.getFirstChunkTokens()));
    return Math.max(0.0, model.getTtftInterceptMs() + model.getTtftPerInputTokenMs() * prefillTokens
        + model.getTtftPerOutputTokenMs() * outputTokens + stepMs * afterFirstChunk);
  }

  /**
   * The tokens the request is expected to generate: its whole limit if it ignores the end of
   * sequence, else its limit times the share of their limits this model's requests have used
   * (1 until the heatmap knows).
   */
  static double expectedOutputTokens(final LatencyModel model, final RequestProfile request) {
    if (request.ignoresEos()) {
      return request.maxOutputTokens();
    }
    return Math.max(1.0, outputShare(model) * request.maxOutputTokens());
  }

  /** The share of their output limits this model's requests generate; 1 until the heatmap knows. */
  private static double outputShare(final LatencyModel model) {
    return model.getExpectedOutputShare() > 0 && model.getExpectedOutputShare() <= 1
        ? model.getExpectedOutputShare() : 1.0;
  }

  static boolean knowsDecodeStep(final LatencyModel model) {
    return model.getDecodeStepBaseMs() > 0.0 || model.getDecodeStepPerSequenceMs() > 0.0;
  }

  /**
   * Time the request waits for a batch slot. Behind a queue, or with every slot of the batch
   * taken ({@code batchSlots}, once known), the request starts once as many running requests as
   * are queued, and one more, have finished. When a running request finishes: where the instance
   * reports what each may still generate, after that many decode steps from its sample
   * ({@link #reportedFrees}); else as this router expects its own requests to end, and the others
   * spread evenly over the service of a request of the instance's usual shape (its recent
   * completions' mean prompt and output, a typical shape until known; {@link #slotFreeMs}). The
   * result is scaled by what the instance's queued attempts waited over the estimates for them
   * ({@code queueWaitScale}).
   */
  public static double queueWaitMs(final InstanceScore row) {
    return queueWaitMs(row, row.getLatencyModel(), OwnWork.NONE, 0);
  }

  /**
   * The queue wait on an instance of the heatmap, by the pooled latency model its ranking used; 0
   * for an instance the heatmap does not know.
   */
  public static double queueWaitMs(final Heatmap heatmap, final String instanceId) {
    final InstanceScore row = heatmap.row(instanceId);
    return row == null ? 0.0 : queueWaitMs(heatmap, row, heatmap.peerModels().of(row));
  }

  /**
   * The queue wait on an instance of the heatmap before its learned scale, by the pooled latency
   * model its ranking used: what the heatmap sets the wait the request will have against. 0 for
   * an instance the heatmap does not know.
   */
  public static double queueEstimateMs(final Heatmap heatmap, final String instanceId) {
    final InstanceScore row = heatmap.row(instanceId);
    return row == null ? 0.0
        : queueEstimateMs(row, heatmap.peerModels().of(row), heatmap.ownWork(instanceId), heatmap.ageMs(row));
  }

  /**
   * The queue wait on a row of the heatmap, with {@code model} in place of the row's own: with this
   * router's own requests there and the row's age, as the heatmap gives them.
   */
  static double queueWaitMs(final Heatmap heatmap, final InstanceScore row, final LatencyModel model) {
    return queueWaitMs(row, model, heatmap.ownWork(row.getInstanceId()), heatmap.ageMs(row));
  }

  private static double queueWaitMs(final InstanceScore row, final LatencyModel model, final OwnWork own,
      final long ageMs) {
    return (model.getQueueWaitScale() > 0 ? model.getQueueWaitScale() : 1.0) * queueEstimateMs(row, model, own, ageMs);
  }

  private static double queueEstimateMs(final InstanceScore row, final LatencyModel model, final OwnWork own,
      final long ageMs) {
    if (row.getQueueLength() <= 0 && !batchFull(row)) {
      return 0.0;
    }
    final RequestProfile usual = new RequestProfile("usual",
        (int) Math.round(model.getMeanInputTokens() > 0 ? model.getMeanInputTokens() : TYPICAL_INPUT_TOKENS),
        (int) Math.max(1, Math.round(model.getMeanOutputTokens() > 0 ? model.getMeanOutputTokens()
            : TYPICAL_OUTPUT_TOKENS)), true, PrefixMatch.NONE, null);
    final double usualMs = serviceMs(row, model, usual);
    final int queued = Math.max(0, row.getQueueLength());
    if (!row.getRunningTokensToLimit().isEmpty() && knowsDecodeStep(model)) {
      return afterQueue(reportedFrees(row, model, usualMs, ageMs), queued, usualMs, own);
    }
    return slotFreeMs(row.getRunningRequests(), queued, usualMs, own);
  }

  /**
   * When each running request's slot frees, by what the instance reported each may still generate
   * (its limit less its tokens, times the share of their limits this model's requests use), a
   * decode step of the full batch a token, less the {@code ageMs} since the sample. Requests
   * running that the sample does not hold (this router's dispatches since) hold their slots for
   * {@code usualMs}.
   */
  private static SlotFrees reportedFrees(final InstanceScore row, final LatencyModel model, final double usualMs,
      final long ageMs) {
    final List<Integer> tokensToLimit = row.getRunningTokensToLimit();
    final int slots = Math.max(Math.max(1, row.getRunningRequests()), tokensToLimit.size());
    final double stepMs = model.getDecodeStepBaseMs() + model.getDecodeStepPerSequenceMs() * slots;
    final double share = outputShare(model);
    final SlotFrees frees = new SlotFrees(slots);
    for (final int tokens : tokensToLimit) {
      frees.add(Math.max(0.0, tokens * share * stepMs - ageMs));
    }
    for (int i = tokensToLimit.size(); i < slots; i++) {
      frees.add(usualMs);
    }
    return frees;
  }

  /**
   * When a slot of a full batch of {@code running} frees for a request behind {@code queued}
   * others: the running requests end one by one, each queued one takes the next slot that frees
   * and holds it for its service, and the request takes the slot after. The running requests this
   * router knows end when it expects them to (those with the most time left first, as those it
   * expected to end soonest are likeliest to have ended already), its queued ones are first in line; every
   * other request is of the usual shape, {@code usualMs} of service, and those running end evenly
   * spread over it: by Little's law, n running requests of that shape end one every usualMs / n.
   * With nothing known this is (queued + 1) * usualMs / running.
   */
  public static double slotFreeMs(final int running, final int queued, final double usualMs, final OwnWork own) {
    final int slots = Math.max(1, running);
    if (own.running() == 0 && own.queued() == 0) {
      return (queued + 1) * usualMs / slots;
    }
    final SlotFrees frees = new SlotFrees(slots);
    final int known = Math.min(slots, own.running());
    for (int i = 0; i < known; i++) {
      frees.add(own.longestLeftMs(i));
    }
    final int unknown = slots - known;
    for (int j = 1; j <= unknown; j++) {
      frees.add(j * usualMs / unknown);
    }
    return afterQueue(frees, queued, usualMs, own);
  }

  /**
   * When a slot frees for a request behind {@code queued} others, the batch's slots freeing at
   * {@code frees} (one a slot; taken): each queued request takes the next slot that frees and
   * holds it for its service, this router's queued ones first in line with theirs, every other
   * one for {@code usualMs}.
   */
  private static double afterQueue(final SlotFrees frees, final int queued, final double usualMs,
      final OwnWork own) {
    final int slots = frees.size();
    final int ownQueued = Math.min(queued, own.queued());
    // One by one while this router's queued requests and a round of others fill the slots; a
    // longer queue of others adds one usual service to every slot per round of them.
    final int oneByOne = Math.min(queued, ownQueued + slots);
    final int rounds = (queued - oneByOne) / slots;
    for (int i = 0; i < oneByOne + (queued - oneByOne) % slots; i++) {
      frees.takeSoonestUntil(frees.soonest() + (i < ownQueued ? own.queuedServiceMs(i) : usualMs));
    }
    return frees.soonest() + rounds * usualMs;
  }

  private static boolean batchFull(final InstanceScore row) {
    return row.getBatchSlots() > 0 && row.getRunningRequests() >= row.getBatchSlots();
  }

  /**
   * Time to the request's first token on an instance of the heatmap: the queue ahead of it, then
   * the prefill of the prompt tokens its prefix cache does not hold, by the pooled latency model
   * its ranking used. 0 for an instance the heatmap does not know.
   */
  public static double ttftMs(final Heatmap heatmap, final String instanceId, final RequestProfile request) {
    final InstanceScore row = heatmap.row(instanceId);
    if (row == null) {
      return 0.0;
    }
    final LatencyModel model = heatmap.peerModels().of(row);
    return queueWaitMs(heatmap, row, model) + firstTokenServiceMs(row, model, request);
  }

  /** Time from the request's start to its first token (its prefill), with {@code model} in place of the row's own. */
  static double firstTokenServiceMs(final InstanceScore row, final LatencyModel model, final RequestProfile request) {
    return Math.max(0.0, model.getTtftInterceptMs()
        + model.getTtftPerInputTokenMs() * request.uncachedTokens(row.getInstanceId())
        + model.getTtftPerOutputTokenMs() * expectedOutputTokens(model, request));
  }

  /**
   * Time per output token after the first: a decode step of the batch with the request in it once
   * the heatmap knows the step, else the latency model's average cost per output token.
   */
  static double tpotMs(final InstanceScore row, final LatencyModel model) {
    if (!knowsDecodeStep(model)) {
      return Math.max(0.0, model.getLatencyPerOutputTokenMs());
    }
    return model.getDecodeStepBaseMs() + model.getDecodeStepPerSequenceMs() * (row.getRunningRequests() + 1);
  }

  /**
   * The instance's own time from a decision to its worker's start of the attempt (the dispatch's
   * commit and read), from the heatmap; 0 for an instance it does not know or has not measured.
   */
  public static double handoffMs(final Heatmap heatmap, final String instanceId) {
    final InstanceScore row = heatmap.row(instanceId);
    return row == null ? 0.0 : handoffMs(row);
  }

  /** The instance's own time from a decision to its worker's start, from its row; 0 until measured. */
  public static double handoffMs(final InstanceScore row) {
    return Math.max(0.0, row.getLatencyModel().getHandoffMs());
  }

  /** Queue wait plus service time on an instance of the heatmap, by its own latency model. */
  public static double latencyMs(final Heatmap heatmap, final InstanceScore row, final RequestProfile request) {
    return queueWaitMs(heatmap, row, row.getLatencyModel()) + serviceMs(row, row.getLatencyModel(), request);
  }
}
