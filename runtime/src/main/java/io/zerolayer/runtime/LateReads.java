package io.zerolayer.runtime;

/**
 * Whether a stream task reads its input late: its latest read was late, less than the idle time
 * ago, and it read no fresh record (read within {@code lateMs} of when it was written) in the
 * last window. While a task is behind, a source's silence on the wall clock is
 * the task's own backlog, so the rules that judge silence wait. A task behind reads in bursts,
 * with pauses while it commits or its fetches wait for a busy broker; those pauses, shorter than
 * the idle time, do not end its lateness. A source that sends nothing at all leaves the task
 * with nothing read and, after the idle time, not late. One fresh record in the window is
 * enough, so a single source whose clock runs behind does not make the task late. Used by one
 * stream thread.
 */
public final class LateReads {

  private final long lateMs;
  private final long windowMs;
  private final long idleMs;
  private long lastLateMs = Long.MIN_VALUE;
  private long lastFreshMs = Long.MIN_VALUE;

  /**
   * @param lateMs a record read this long or longer after it was written is not fresh
   * @param windowMs how far back a fresh read is looked for
   * @param idleMs how long after its last late read a task that reads nothing is still taken to be behind
   */
  public LateReads(final long lateMs, final long windowMs, final long idleMs) {
    if (lateMs <= 0 || windowMs <= 0 || idleMs < windowMs) {
      throw new IllegalArgumentException("lateMs and windowMs must be positive and idleMs at least windowMs: "
          + lateMs + ", " + windowMs + ", " + idleMs);
    }
    this.lateMs = lateMs;
    this.windowMs = windowMs;
    this.idleMs = idleMs;
  }

  /** Notes a record written at {@code writtenMs} (its timestamp) and read at {@code nowMs}. */
  public void read(final long writtenMs, final long nowMs) {
    if (nowMs - writtenMs < lateMs) {
      lastFreshMs = nowMs;
    } else {
      lastLateMs = nowMs;
    }
  }

  /** Whether the task reads late at {@code nowMs}. */
  public boolean late(final long nowMs) {
    return lastLateMs != Long.MIN_VALUE && nowMs - lastLateMs <= idleMs && lastLateMs > lastFreshMs
        && (lastFreshMs == Long.MIN_VALUE || nowMs - lastFreshMs > windowMs);
  }
}
