package io.zerolayer.contract.sequence;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import java.util.Objects;

/**
 * Which workers' chunks make up a sequence's token stream, decided by the order of the tokens
 * topic's partition alone, so that every reader of it comes to the same tokens: token-buffer,
 * which persists them, and a client that reads chunks the moment the workers write them. The
 * routing decisions, a separate topic each reader interleaves in its own way, play no part.
 *
 * <ul>
 *   <li>The stream's owner is one attempt: an epoch and the instance that runs it.
 *   <li>A claim (an empty chunk that is not the last and reports no failure, which every attempt
 *       sends before its first token) of a newer epoch than the owner's, or the first chunk of
 *       a sequence, makes its attempt the owner from the stream's end on, whatever its start
 *       index: from there on the older attempt's chunks are refused, so that the new owner learns
 *       exactly which tokens the stream has by reading the log up to its claim.
 *   <li>An end (an empty last chunk that reports no failure) of a newer epoch than the owner's
 *       closes the stream where it is, whatever its start index: a router writes one when it
 *       gives up a sequence no instance can take, so that the older attempt's chunks before it
 *       are part of the stream and those after it are not, for every reader alike.
 *   <li>A chunk with tokens of a newer epoch takes the stream over only at exactly the index the
 *       stream has reached: one that starts before would continue a text the stream does not
 *       have, and is refused ({@link Verdict#BEHIND}).
 *   <li>After that, a chunk of an older epoch, or of the owner's epoch from another instance or
 *       another run ({@link TokenChunk#getAttemptId()}) of the task, is refused; the owner's
 *       chunks are de-duplicated by index and may not leave a gap.
 *   <li>A chunk that reports a failure is never part of the stream and takes nothing over.
 * </ul>
 */
public final class TokenStreamRules {

  /** What a chunk is to the stream. */
  public enum Verdict {
    /** From the owner; its tokens past the stream's end, if any, are accepted. */
    CONTINUES,
    /** Its attempt becomes the owner, from the stream's end on. */
    TAKES_OVER,
    /** From the owner, and every token in it was accepted before. */
    DUPLICATE,
    /** It starts past the stream's end. */
    GAP,
    /** A newer attempt that starts before the stream's end: it resumed from a shorter prefix. */
    BEHIND,
    /** The owner's epoch, from another instance or another run on its instance. */
    NOT_OWNER,
    /** An epoch older than the owner's. */
    STALE_EPOCH,
    /** A failure report: the attempt's, not the stream's. */
    FAILURE;

    /** Whether the chunk joins the stream. */
    public boolean joins() {
      return this == CONTINUES || this == TAKES_OVER;
    }
  }

  /**
   * The attempt that owns a stream.
   *
   * @param epoch the attempt's epoch
   * @param instanceId the instance that runs it
   * @param attemptId the run ({@link TokenChunk#getAttemptId()}), or null from a writer that predates it
   */
  public record Owner(int epoch, String instanceId, String attemptId) {

    public Owner {
      requireNonNull(instanceId, "instanceId");
    }

    /** The owner of a stream whose chunk {@code chunk} joined it. */
    public static Owner of(final TokenChunk chunk) {
      return new Owner(chunk.getEpoch(), chunk.getInstanceId(), chunk.getAttemptId());
    }

    /** Whether the chunk comes from this attempt's run. */
    public boolean sent(final TokenChunk chunk) {
      return epoch == chunk.getEpoch() && instanceId.equals(chunk.getInstanceId())
          && Objects.equals(attemptId, chunk.getAttemptId());
    }
  }

  private TokenStreamRules() {
  }

  /**
   * What {@code chunk} is to a stream.
   *
   * @param owner the stream's owner, or null before any chunk joined it
   * @param nextIndex how many tokens the stream has
   */
  public static Verdict judge(final Owner owner, final int nextIndex, final TokenChunk chunk) {
    if (chunk.getFailure() != null) {
      return Verdict.FAILURE;
    }
    final int start = chunk.getStartIndex();
    if (owner == null || chunk.getEpoch() > owner.epoch()) {
      if (claims(chunk) || ends(chunk)) {
        return Verdict.TAKES_OVER;
      }
      if (start > nextIndex) {
        return Verdict.GAP;
      }
      return start == nextIndex ? Verdict.TAKES_OVER : Verdict.BEHIND;
    }
    if (chunk.getEpoch() < owner.epoch()) {
      return Verdict.STALE_EPOCH;
    }
    if (!owner.sent(chunk)) {
      return Verdict.NOT_OWNER;
    }
    if (start > nextIndex) {
      return Verdict.GAP;
    }
    final int end = start + chunk.getTokens().size();
    return end <= nextIndex && !chunk.getTokens().isEmpty() && !chunk.getLast() ? Verdict.DUPLICATE
        : Verdict.CONTINUES;
  }

  /** Whether the chunk is a claim: empty, not the last, no failure. */
  public static boolean claims(final TokenChunk chunk) {
    return chunk.getTokens().isEmpty() && !chunk.getLast() && chunk.getFailure() == null;
  }

  /** Whether the chunk is an end: empty, the last, no failure. */
  public static boolean ends(final TokenChunk chunk) {
    return chunk.getTokens().isEmpty() && chunk.getLast() && chunk.getFailure() == null;
  }

  /** The tokens of a chunk that joins the stream past its end ({@code nextIndex} on). */
  public static List<String> fresh(final int nextIndex, final TokenChunk chunk) {
    final List<String> tokens = chunk.getTokens();
    return List.copyOf(tokens.subList(Math.min(Math.max(0, nextIndex - chunk.getStartIndex()), tokens.size()),
        tokens.size()));
  }
}
