package io.zerolayer.gateway.internal;

import java.util.Optional;
import java.util.UUID;

/**
 * The sequence ids the gateway gives its requests: the tenant's id, a dash and a random UUID. The
 * id is the request id its client sees, and says whose it is without a lookup: a tenant may
 * reconnect to its own requests only.
 */
public final class SequenceIds {

  private static final int UUID_LENGTH = 36;

  private SequenceIds() {
  }

  /** What a tenant's sequence ids start with; a random UUID follows. */
  static String prefix(final String tenantId) {
    return tenantId + "-";
  }

  /** The tenant a gateway's sequence id belongs to, or empty when it is not one the gateway made. */
  public static Optional<String> tenantOf(final String sequenceId) {
    if (sequenceId == null || sequenceId.length() < UUID_LENGTH + 2) {
      return Optional.empty();
    }
    final int dash = sequenceId.length() - UUID_LENGTH - 1;
    if (sequenceId.charAt(dash) != '-') {
      return Optional.empty();
    }
    try {
      final String uuid = sequenceId.substring(dash + 1);
      if (!UUID.fromString(uuid).toString().equals(uuid)) {
        return Optional.empty();
      }
    } catch (final IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of(sequenceId.substring(0, dash));
  }
}
