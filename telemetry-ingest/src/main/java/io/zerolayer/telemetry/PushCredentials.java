package io.zerolayer.telemetry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.runtime.tenant.Tenant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may push telemetry, and for which instances, read from the JSON file named by
 * {@code telemetry.push.credentials.file}: each pusher's bearer token, kept as its SHA-256 (hex),
 * and the instance ids its samples may name, so that a pusher can neither invent an instance nor
 * speak for another's.
 *
 * <pre>{@code
 * {"pushers": [
 *   {"tokenSha256": "9f86d08...", "instances": ["gpu-0", "gpu-1"]}
 * ]}
 * }</pre>
 *
 * <p>A file that cannot be read or has a bad entry throws {@link IllegalArgumentException}
 * naming the file, the entry and the fix. {@link #NONE} takes no push at all.
 */
public final class PushCredentials {

  /** No pusher: the push endpoint refuses every sample. */
  public static final PushCredentials NONE = new PushCredentials(Map.of());

  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int SHA256_HEX_LENGTH = 64;

  private final Map<String, Set<String>> instancesByTokenHash;

  private PushCredentials(final Map<String, Set<String>> instancesByTokenHash) {
    this.instancesByTokenHash = Map.copyOf(instancesByTokenHash);
  }

  /** Pushers given directly: each token's SHA-256 (hex) and the instances its samples may name. */
  public static PushCredentials of(final Map<String, Set<String>> instancesByTokenHash) {
    final Map<String, Set<String>> copy = new HashMap<>();
    instancesByTokenHash.forEach((hash, instances) -> copy.put(hash.toLowerCase(), Set.copyOf(instances)));
    return new PushCredentials(copy);
  }

  /** Reads a credentials file; the error names the file, the entry and the fix. */
  public static PushCredentials read(final Path file) {
    final JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (final JsonProcessingException e) {
      throw bad(file, "is not JSON (" + e.getOriginalMessage() + ")");
    } catch (final IOException e) {
      throw bad(file, "cannot be read (" + e + "); point telemetry.push.credentials.file at a readable file");
    }
    if (root == null || !root.isObject() || !root.path("pushers").isArray() || root.size() != 1) {
      throw bad(file, "must be an object with one member, \"pushers\": an array of"
          + " {\"tokenSha256\": \"<hex>\", \"instances\": [\"<instance id>\", ...]}");
    }
    final Map<String, Set<String>> pushers = new HashMap<>();
    int entry = 0;
    for (final JsonNode pusher : root.get("pushers")) {
      entry++;
      final JsonNode hash = pusher.path("tokenSha256");
      final JsonNode instances = pusher.path("instances");
      if (!hash.isTextual() || hash.asText().length() != SHA256_HEX_LENGTH || !hash.asText().matches("[0-9a-fA-F]+")) {
        throw bad(file, "pusher " + entry + ": tokenSha256 must be the token's SHA-256 in hex (64 characters),"
            + " as printed by: printf %s \"$TOKEN\" | sha256sum");
      }
      if (!instances.isArray() || instances.isEmpty()) {
        throw bad(file, "pusher " + entry + ": instances must list the instance ids its samples may name");
      }
      final Set<String> ids = new LinkedHashSet<>();
      instances.forEach(id -> ids.add(id.asText()));
      if (pushers.put(hash.asText().toLowerCase(), ids) != null) {
        throw bad(file, "pusher " + entry + ": the same token is listed twice; give each pusher its own");
      }
    }
    return new PushCredentials(pushers);
  }

  /** Whether no pusher is allowed. */
  public boolean none() {
    return instancesByTokenHash.isEmpty();
  }

  /** The instances the bearer of {@code token} may push samples of; empty for an unknown token. */
  public Optional<Set<String>> instancesOf(final String token) {
    final byte[] hash = Tenant.hashKey(token).getBytes(StandardCharsets.US_ASCII);
    for (final Map.Entry<String, Set<String>> pusher : instancesByTokenHash.entrySet()) {
      if (MessageDigest.isEqual(hash, pusher.getKey().getBytes(StandardCharsets.US_ASCII))) {
        return Optional.of(pusher.getValue());
      }
    }
    return Optional.empty();
  }

  private static IllegalArgumentException bad(final Path file, final String problem) {
    return new IllegalArgumentException("Push credentials file " + file.toAbsolutePath() + " " + problem);
  }
}
