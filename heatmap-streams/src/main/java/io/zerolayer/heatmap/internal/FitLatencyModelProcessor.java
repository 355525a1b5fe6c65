package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.runtime.InvalidRecordException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Adds each finished attempt to its instance's latency statistics, and notes how far it was from
 * what they predicted before it ({@link FitErrors}). What is fitted is the attempt's service
 * time: its time to the first token and its latency less the time it waited in the engine's queue
 * (when the worker says), since a router adds the queue ahead of a request itself; fitted with
 * the queue in, an instance that queued would have its wait counted twice. What an attempt waited
 * is set against its router's estimate ({@link LatencyFitter#observeQueue}), so that routers
 * learn how fast each instance's queue drains. Cancelled and failed attempts
 * say nothing about how long a whole request takes, so they are left out. A record without a
 * value or with impossible figures is thrown as an {@link InvalidRecordException}, before any
 * state changed, for the app's processing-exception handler to send to the dead-letter topic.
 */
public final class FitLatencyModelProcessor implements Processor<String, Completion, Void, Void> {

  private final String storeName;
  private final LatencyFitter fitter;
  private final FitErrors errors;
  private KeyValueStore<String, LatencyFit> fits;

  public FitLatencyModelProcessor(final String storeName, final LatencyFitter fitter, final FitErrors errors) {
    this.storeName = requireNonNull(storeName, "storeName");
    this.fitter = requireNonNull(fitter, "fitter");
    this.errors = requireNonNull(errors, "errors");
  }

  @Override
  public void init(final ProcessorContext<Void, Void> context) {
    fits = context.getStateStore(storeName);
  }

  @Override
  public void process(final Record<String, Completion> record) {
    final Completion completion = record.value();
    if (completion == null) {
      throw new InvalidRecordException("completion record without a value (key " + record.key() + ")");
    }
    if (record.key() == null) {
      throw new InvalidRecordException("completion record without a key (its instance id)");
    }
    if (completion.getOutcome() != CompletionOutcome.FINISHED) {
      return;
    }
    if (completion.getInputTokens() < 0 || completion.getOutputTokens() < 0 || completion.getCachedTokens() < 0
        || completion.getCachedTokens() > completion.getInputTokens() || !(completion.getTtftMs() >= 0)
        || !(completion.getTotalMs() >= completion.getTtftMs()) || Double.isInfinite(completion.getTotalMs())
        || !(completion.getQueuedMs() >= 0) || completion.getQueuedMs() > completion.getTtftMs()
        || !(completion.getHandoffMs() >= 0) || Double.isInfinite(completion.getHandoffMs())
        || completion.getFirstChunkTokens() < 0 || completion.getFirstChunkTokens() > completion.getOutputTokens()
        || completion.getQueueEstimateMs() != null && !(completion.getQueueEstimateMs() >= 0
            && completion.getQueueEstimateMs() < Double.POSITIVE_INFINITY)) {
      throw new InvalidRecordException("completion of " + completion.getSequenceId() + " on "
          + completion.getInstanceId() + " has impossible figures: " + completion.getInputTokens() + " input ("
          + completion.getCachedTokens() + " cached) and " + completion.getOutputTokens()
          + " output tokens (" + completion.getFirstChunkTokens() + " in the first chunk), first token after "
          + completion.getTtftMs()
          + " ms of " + completion.getTotalMs() + " ms, " + completion.getQueuedMs() + " ms of it queued, "
          + completion.getHandoffMs() + " ms from the decision to the worker's start, a queue wait of "
          + completion.getQueueEstimateMs() + " ms estimated");
    }
    final double ttftMs = completion.getTtftMs() - completion.getQueuedMs();
    final double latencyMs = completion.getTotalMs() - completion.getQueuedMs();
    final String id = completion.getInstanceId();
    final LatencyFit fit = fits.get(id);
    // Prefill is fitted to the prompt tokens prefilled: those the prefix cache held cost next to nothing.
    final int prefilled = completion.getInputTokens() - completion.getCachedTokens();
    errors.record(fitter.model(fit), prefilled, completion.getOutputTokens(), ttftMs, latencyMs);
    final LatencyFit fitted = fitter.add(fit, prefilled, completion.getOutputTokens(), latencyMs, ttftMs,
        completion.getFinishedAtMs());
    final LatencyFit timed = fitter.observeQueue(fitter.observeHandoff(fitted, completion.getHandoffMs()),
        completion.getQueuedMs(), completion.getQueueEstimateMs() == null ? 0 : completion.getQueueEstimateMs());
    final LatencyFit added = fitter.observeFirstChunk(timed, completion.getFirstChunkTokens());
    // A first attempt that finished generated what the request asked of the engine; a resumed one, only its
    // rest; one told to ignore the end of sequence, its whole limit, which says nothing of where the model stops.
    fits.put(id, completion.getEpoch() == 1 && !completion.getIgnoreEos()
        ? fitter.observeOutput(added, completion.getOutputTokens(), completion.getMaxOutputTokens()) : added);
  }
}
