package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

/**
 * What selection needs to know of a request.
 *
 * @param sequenceId the request's sequence id
 * @param inputTokens estimated prompt tokens
 * @param maxOutputTokens the most tokens it may generate
 * @param prefix how much of the prompt each instance's prefix cache holds
 * @param sessionInstance the instance that served the previous request of the request's session, or null
 */
public record RequestProfile(String sequenceId, int inputTokens, int maxOutputTokens, PrefixMatch prefix,
    String sessionInstance) {

  public RequestProfile {
    requireNonNull(prefix, "prefix");
  }

  /** A request of no session. */
  public RequestProfile(final String sequenceId, final int inputTokens, final int maxOutputTokens,
      final PrefixMatch prefix) {
    this(sequenceId, inputTokens, maxOutputTokens, prefix, null);
  }

  /** A request of no session whose prompt no instance is known to hold. */
  public RequestProfile(final String sequenceId, final int inputTokens, final int maxOutputTokens) {
    this(sequenceId, inputTokens, maxOutputTokens, PrefixMatch.NONE);
  }

  /** The same request as though no instance held any of its prompt. */
  public RequestProfile withoutPrefix() {
    return prefix == PrefixMatch.NONE ? this
        : new RequestProfile(sequenceId, inputTokens, maxOutputTokens, PrefixMatch.NONE, sessionInstance);
  }

  /** The prompt tokens the instance would have to prefill: those its prefix cache does not hold. */
  public int uncachedTokens(final String instanceId) {
    return Math.max(0, inputTokens - prefix.cachedTokens(instanceId));
  }
}
