package io.zerolayer.router.policy;

/**
 * What selection needs to know of a request.
 *
 * @param sequenceId the request's sequence id
 * @param inputTokens estimated prompt tokens
 * @param maxOutputTokens the most tokens it may generate
 */
public record RequestProfile(String sequenceId, int inputTokens, int maxOutputTokens) {
}
