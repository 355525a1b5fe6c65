package io.zerolayer.runtime;

/**
 * Whether a stream task reads its input late: it read records within the last window, and none
 * of them fresh (read within {@code lateMs} of when it was written). While a task is behind, a
 * source's silence on the wall clock is the task's own backlog, so the rules that judge silence
 * wait; a source that sends nothing at all leaves the task with nothing read and never late. One
 * fresh record in the window is enough, so a single source whose clock runs behind does not make
 * the task late. Used by one stream thread.
 */
public final class LateReads {

  private final long lateMs;
  private final long windowMs;
  private long lastReadMs = Long.MIN_VALUE;
  private long lastFreshMs = Long.MIN_VALUE;

  /**
   * @param lateMs a record read this long or longer after it was written is not fresh
   * @param windowMs how far back the reads are looked at
   */
  public LateReads(final long lateMs, final long windowMs) {
    if (lateMs <= 0 || windowMs <= 0) {
      throw new IllegalArgumentException("lateMs and windowMs must be positive: " + lateMs + ", " + windowMs);
    }
    this.lateMs = lateMs;
    this.windowMs = windowMs;
  }

  /** Notes a record written at {@code writtenMs} (its timestamp) and read at {@code nowMs}. */
  public void read(final long writtenMs, final long nowMs) {
    lastReadMs = nowMs;
    if (nowMs - writtenMs < lateMs) {
      lastFreshMs = nowMs;
    }
  }

  /** Whether the task reads late at {@code nowMs}. */
  public boolean late(final long nowMs) {
    return lastReadMs != Long.MIN_VALUE && nowMs - lastReadMs <= windowMs
        && (lastFreshMs == Long.MIN_VALUE || nowMs - lastFreshMs > windowMs);
  }
}
