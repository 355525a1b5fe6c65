package io.zerolayer.bench.chaos;

/**
 * One fault made.
 *
 * @param kind what was done
 * @param target the broker, app or process it was done to
 * @param atMs when it began (epoch ms)
 * @param repairedMs until the broker's partitions were all in sync again, the app answered ready
 *     again, or the registry was resumed
 * @param servingAgainMs from {@code atMs} until a sequence sent after it reached its client, -1 if none did
 */
record FaultRecord(FaultKind kind, String target, long atMs, long repairedMs, long servingAgainMs) {

  FaultRecord servingAgainAfter(final long ms) {
    return new FaultRecord(kind, target, atMs, repairedMs, ms);
  }
}
