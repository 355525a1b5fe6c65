package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;

/**
 * When token-buffer releases a sequence id the routers hold (the topic of sequence holds): once
 * a sequence that was dispatched has ended, and only then, so that a release never lands after
 * the hold of a later request with the same id (the routers refuse that request until they read
 * the release).
 */
final class HoldRelease {

  private HoldRelease() {
  }

  /** Whether the step from {@code before} to {@code after} ended a dispatched sequence. */
  static boolean releases(final SequenceState before, final SequenceState after) {
    if (after == null || after.getStatus() != SequenceStatus.FINISHED || after.getEpoch() < 1) {
      return false;
    }
    return before == null || before.getStatus() != SequenceStatus.FINISHED
        || before.getRequestPartition() != after.getRequestPartition()
        || before.getRequestOffset() != after.getRequestOffset();
  }
}
