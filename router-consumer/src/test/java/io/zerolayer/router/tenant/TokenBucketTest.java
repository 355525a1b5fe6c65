package io.zerolayer.router.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void shouldSayExactlyHowLongUntilEnoughTokensHaveRefilled() {
    final TokenBucket bucket = new TokenBucket(10, 20, 0);
    bucket.take(20, 0);

    // 5 tokens at 10/s: 500 ms
    assertThat(bucket.waitMillis(5, 0)).isEqualTo(500);
    // 200 ms later, 2 have come back: 300 ms to go
    assertThat(bucket.waitMillis(5, SECOND / 5)).isEqualTo(300);
    assertThat(bucket.waitMillis(5, SECOND / 2)).isZero();
  }

  @Test
  void shouldNeverHoldMoreThanItsCapacity() {
    final TokenBucket bucket = new TokenBucket(10, 20, 0);

    assertThat(bucket.waitMillis(20, 100 * SECOND)).isZero();
    assertThat(bucket.waitMillis(21, 100 * SECOND)).isEqualTo(100);
    assertThat(bucket.fits(21)).isFalse();
  }
}
