package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.LatencyFit;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Adds each finished attempt to its instance's latency statistics. Cancelled and failed attempts
 * say nothing about how long a whole request takes, so they are left out.
 */
public final class FitLatencyModelProcessor implements Processor<String, Completion, Void, Void> {

  private final String storeName;
  private final LatencyFitter fitter;
  private KeyValueStore<String, LatencyFit> fits;

  public FitLatencyModelProcessor(final String storeName, final LatencyFitter fitter) {
    this.storeName = requireNonNull(storeName, "storeName");
    this.fitter = requireNonNull(fitter, "fitter");
  }

  @Override
  public void init(final ProcessorContext<Void, Void> context) {
    fits = context.getStateStore(storeName);
  }

  @Override
  public void process(final Record<String, Completion> record) {
    final Completion completion = record.value();
    if (completion.getOutcome() != CompletionOutcome.FINISHED) {
      return;
    }
    final String id = completion.getInstanceId();
    fits.put(id, fitter.add(fits.get(id), completion.getInputTokens(), completion.getOutputTokens(),
        completion.getTotalMs(), completion.getTtftMs(), completion.getFinishedAtMs()));
  }
}
