package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.runtime.InvalidRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Accepts workers' token chunks into the sequence store and emits exactly the new tokens (a
 * record without a value, or keyed by another sequence, is dead-lettered); on a
 * wall-clock schedule, reports stalled attempts (including those whose owner the heatmap ejected
 * or asks to cut over) and removes old finished sequences. A sequence that ends releases its id. An attempt its worker reports failed
 * is reported as soon as the report is read.
 */
public final class AcceptTokensProcessor implements Processor<String, TokenChunk, String, SpecificRecord> {

  /**
   * @param storeName the sequence store
   * @param tokensStore the token store, one record per accepted chunk
   * @param responses child that writes response chunks
   * @param stalls child that writes stall reports
   * @param holds child that writes the releases of sequence ids
   * @param checkInterval how often the sweep runs
   * @param scoresStore the global store of heatmap rows, by instance id
   * @param liveStore the in-memory index of the sequences the stall checks watch
   * @param cutover whether stalled and failed attempts are reported for a backup; if not, none is
   *     reported and a failed attempt ends its sequence
   */
  public record Wiring(String storeName, String tokensStore, String responses, String stalls, String holds,
      Duration checkInterval, String scoresStore, String liveStore, boolean cutover) {
  }

  private final Wiring wiring;
  private final StallDetector detector;
  private final Duration retention;
  private final SilentOwners silentOwners;
  private final InputLag inputLag;
  private final SequenceMeters meters;
  private SequenceSweeper sweeper;
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<String, SequenceState> sequences;
  private TokenStore tokens;
  private LiveSequences live;
  private ReadOnlyKeyValueStore<String, InstanceScore> scores;

  /**
   * @param silentOwners the app's instances whose engine stopped, one for every task
   * @param inputLag how far behind the app's tasks read, one for every task
   */
  public AcceptTokensProcessor(final Wiring wiring, final StallDetector detector, final Duration retention,
      final SilentOwners silentOwners, final InputLag inputLag, final SequenceMeters meters) {
    this.wiring = wiring;
    this.detector = detector;
    this.retention = retention;
    this.silentOwners = silentOwners;
    this.inputLag = inputLag;
    this.meters = meters;
  }

  @Override
  public void init(final ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.sequences = context.getStateStore(wiring.storeName());
    this.tokens = new TokenStore(context.getStateStore(wiring.tokensStore()));
    this.scores = context.getStateStore(wiring.scoresStore());
    this.live = new LiveSequences(context.getStateStore(wiring.liveStore()));
    final int partition = context.taskId().partition();
    this.sweeper = new SequenceSweeper(detector, retention, wiring.cutover(), silentOwners, meters,
        nowMs -> inputLag.behind(partition, nowMs));
    live.rebuild(sequences, context.currentSystemTimeMs());
    context.schedule(wiring.checkInterval(), PunctuationType.WALL_CLOCK_TIME, this::sweep);
  }

  @Override
  public void process(final Record<String, TokenChunk> record) {
    if (record.value() == null) {
      throw new InvalidRecordException("token chunk without a value (key " + record.key() + ")");
    }
    if (record.key() == null) {
      throw new InvalidRecordException("token chunk without a key (its sequence id)");
    }
    if (!record.value().getSequenceId().equals(record.key())) {
      // Read as is, it would join the keyed sequence's stream: another sequence's text spliced in.
      throw new InvalidRecordException("token chunk of sequence " + record.value().getSequenceId() + " keyed by "
          + record.key() + ": a chunk is keyed by its sequence id");
    }
    final long nowMs = context.currentSystemTimeMs();
    final long offset = context.recordMetadata().map(RecordMetadata::offset).orElse(-1L);
    sweeper.read(record.timestamp(), nowMs);
    if (!record.value().getTokens().isEmpty()) {
      silentOwners.progressed(record.value().getInstanceId(), record.value().getEmittedAtMs());
    }
    final SequenceState current = sequences.get(record.key());
    final SequenceLedger.Step accepted = SequenceLedger.accept(current, record.value(), offset, nowMs);
    final SequenceLedger.Step step = wiring.cutover() ? accepted : SequenceLedger.endIfFailed(accepted, nowMs);
    meters.chunk(step.verdict());
    if (step.state() == null) {
      return;
    }
    sequences.put(record.key(), step.state());
    live.note(record.key(), step.state(), nowMs);
    tokens.apply(record.key(), step);
    if (wiring.cutover() && step.state().getAttemptFailure() != null) {
      // The worker said the attempt is lost: its backup need not wait for the next sweep.
      sweeper.check(sequences, tokens, record.key(), step.state(), nowMs, owners(), this::reportStall);
    }
    if (step.response() != null) {
      if (step.state().getStatus() == SequenceStatus.FINISHED) {
        meters.finished();
      }
      context.forward(new Record<String, SpecificRecord>(record.key(), step.response(), record.timestamp(),
          ReplyTopics.headersFor(step.state().getReplyTopic())), wiring.responses());
    }
    if (HoldRelease.releases(current, step.state())) {
      release(record.key(), record.timestamp());
    }
  }

  private void release(final String key, final long timestamp) {
    context.forward(new Record<String, SpecificRecord>(key, null, timestamp), wiring.holds());
  }

  private void sweep(final long nowMs) {
    sweeper.sweep(sequences, live, tokens, nowMs, owners(), this::reportStall, key -> release(key, nowMs));
  }

  private OwnerHealth owners() {
    return new OwnerHealth(scores::get, this::allScores);
  }

  private void reportStall(final String key, final StallDetected stall) {
    meters.stalled();
    context.forward(new Record<String, SpecificRecord>(key, stall, stall.getDetectedAtMs(), new RecordHeaders()),
        wiring.stalls());
  }

  private Iterator<InstanceScore> allScores() {
    final List<InstanceScore> rows = new ArrayList<>();
    try (KeyValueIterator<String, InstanceScore> all = scores.all()) {
      all.forEachRemaining(entry -> rows.add(entry.value));
    }
    return rows.iterator();
  }
}
