package io.zerolayer.deploy.topics;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How durable provisioned topics are: replication factor and {@code min.insync.replicas}. */
public enum ProvisioningProfile {
  /** A single local broker. */
  LOCAL((short) 1, 1),
  /** A real cluster of at least three brokers: a write survives the loss of one of them. */
  PRODUCTION((short) 3, 2);

  private final short replicationFactor;
  private final int minInsyncReplicas;

  ProvisioningProfile(final short replicationFactor, final int minInsyncReplicas) {
    this.replicationFactor = replicationFactor;
    this.minInsyncReplicas = minInsyncReplicas;
  }

  public short replicationFactor() {
    return replicationFactor;
  }

  public int minInsyncReplicas() {
    return minInsyncReplicas;
  }

  /**
   * The profile named {@code name}, ignoring case and surrounding blanks.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static ProvisioningProfile parse(final String name) {
    final String wanted = name == null ? "" : name.trim();
    return Arrays.stream(values())
        .filter(profile -> profile.name().equalsIgnoreCase(wanted))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Unknown provisioning profile '" + name + "'; use one of: "
            + Arrays.stream(values()).map(p -> p.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "))));
  }
}
