package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

/**
 * What selection needs to know of a request.
 *
 * @param sequenceId the request's sequence id
 * @param inputTokens estimated prompt tokens
 * @param maxOutputTokens the most tokens it may generate
 * @param ignoresEos whether it generates exactly {@code maxOutputTokens}, past the model's end of sequence
 * @param prefix how much of the prompt each instance's prefix cache holds
 * @param sessionInstance the instance that served the previous request of the request's session, or null
 */
public record RequestProfile(String sequenceId, int inputTokens, int maxOutputTokens, boolean ignoresEos,
    PrefixMatch prefix, String sessionInstance) {

  public RequestProfile {
    requireNonNull(prefix, "prefix");
  }

  /** A request that may stop before its limit. */
  public RequestProfile(final String sequenceId, final int inputTokens, final int maxOutputTokens,
      final PrefixMatch prefix, final String sessionInstance) {
    this(sequenceId, inputTokens, maxOutputTokens, false, prefix, sessionInstance);
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
        : new RequestProfile(sequenceId, inputTokens, maxOutputTokens, ignoresEos, PrefixMatch.NONE, sessionInstance);
  }

  /** The prompt tokens the instance would have to prefill: those its prefix cache does not hold. */
  public int uncachedTokens(final String instanceId) {
    return Math.max(0, inputTokens - prefix.cachedTokens(instanceId));
  }
}
