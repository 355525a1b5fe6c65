package io.zerolayer.router.tenant;

/**
 * A token bucket: refills at {@code ratePerSecond} up to {@code capacity}. Used by one router
 * thread only; time comes from the caller, so tests narrate it.
 */
public final class TokenBucket {

  private final double ratePerSecond;
  private final double capacity;
  private double available;
  private long lastNanos;

  /** A full bucket at time {@code nowNanos}. */
  public TokenBucket(final double ratePerSecond, final double capacity, final long nowNanos) {
    this.ratePerSecond = ratePerSecond;
    this.capacity = capacity;
    this.available = capacity;
    this.lastNanos = nowNanos;
  }

  /** Whether {@code amount} can ever be taken (it is not more than the bucket holds). */
  public boolean fits(final double amount) {
    return amount <= capacity;
  }

  /** Milliseconds until {@code amount} is available (0 when it is now); rounded up. */
  public long waitMillis(final double amount, final long nowNanos) {
    refill(nowNanos);
    if (available >= amount) {
      return 0;
    }
    return (long) Math.ceil((amount - available) / ratePerSecond * 1000.0);
  }

  /** Takes {@code amount}; call only after {@link #waitMillis} said 0 at the same time. */
  public void take(final double amount, final long nowNanos) {
    refill(nowNanos);
    available -= amount;
  }

  /** Puts back {@code amount} taken for what did not happen (up to the capacity). */
  public void giveBack(final double amount, final long nowNanos) {
    refill(nowNanos);
    available = Math.min(capacity, available + amount);
  }

  private void refill(final long nowNanos) {
    if (nowNanos > lastNanos) {
      available = Math.min(capacity, available + (nowNanos - lastNanos) / 1e9 * ratePerSecond);
      lastNanos = nowNanos;
    }
  }
}
