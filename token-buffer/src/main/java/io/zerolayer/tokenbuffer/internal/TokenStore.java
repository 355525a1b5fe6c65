package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.TokenRun;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The tokens of each sequence, one record per accepted chunk under {@code <sequence id> NUL
 * <start index>}, so that a chunk costs the store and its changelog about its own size whatever
 * the sequence's length, and a sequence's tokens read back in order with one prefix scan.
 */
public final class TokenStore {

  private static final char SEPARATOR = '\u0000';
  private static final StringSerializer KEYS = new StringSerializer();

  private final KeyValueStore<String, TokenRun> runs;

  public TokenStore(final KeyValueStore<String, TokenRun> runs) {
    this.runs = requireNonNull(runs, "runs");
  }

  /** Writes what a step of the ledger did to a sequence's tokens: drops them, adds a run, or both. */
  void apply(final String sequenceId, final SequenceLedger.Step step) {
    if (step.discardTokens()) {
      delete(sequenceId);
    }
    final TokenRun run = step.appended();
    if (run != null && !run.getTokens().isEmpty()) {
      runs.put(key(sequenceId, run.getStartIndex()), run);
    }
  }

  /** The sequence's first {@code count} tokens (fewer if it has fewer), in order. */
  List<String> first(final String sequenceId, final int count) {
    return first(runs, sequenceId, count);
  }

  /** Removes every token of the sequence. */
  void delete(final String sequenceId) {
    final List<String> keys = new ArrayList<>();
    try (KeyValueIterator<String, TokenRun> all = runs.prefixScan(prefix(sequenceId), KEYS)) {
      all.forEachRemaining(entry -> keys.add(entry.key));
    }
    keys.forEach(runs::delete);
  }

  /** The first {@code count} tokens of a sequence in a store of runs, such as an interactive query's. */
  public static List<String> first(final ReadOnlyKeyValueStore<String, TokenRun> runs, final String sequenceId,
      final int count) {
    final List<String> tokens = new ArrayList<>(count);
    try (KeyValueIterator<String, TokenRun> all = runs.prefixScan(prefix(sequenceId), KEYS)) {
      while (all.hasNext() && tokens.size() < count) {
        final List<String> words = all.next().value.getTokens();
        tokens.addAll(words.subList(0, Math.min(words.size(), count - tokens.size())));
      }
    }
    return tokens;
  }

  static String key(final String sequenceId, final int startIndex) {
    return prefix(sequenceId) + String.format("%010d", startIndex);
  }

  private static String prefix(final String sequenceId) {
    return sequenceId + SEPARATOR;
  }
}
