package io.zerolayer.runtime;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import java.time.Duration;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {

  private final StreamThreadFailures failures = new StreamThreadFailures(3, Duration.ofMinutes(1),
      Duration.ofSeconds(10));
  private final RuntimeException poison = new IllegalStateException("a task that fails on every retry");

  @Test
  void shouldReplaceAFailedThreadUntilItFailedTooOftenWithinTheWindowThenStopTheApp() {
    assertThat(failures.failed(poison, false, 0)).isEqualTo(REPLACE_THREAD);
    assertThat(failures.failed(poison, false, 1_000)).isEqualTo(REPLACE_THREAD);
    assertThat(failures.failed(poison, false, 2_000)).isEqualTo(REPLACE_THREAD);

    assertThat(failures.failed(poison, false, 3_000)).isEqualTo(SHUTDOWN_CLIENT);
  }

  @Test
  void shouldForgetFailuresOlderThanTheWindow() {
    for (int i = 0; i < 10; i++) {
      assertThat(failures.failed(poison, false, i * 30_000L)).as("failure %d", i).isEqualTo(REPLACE_THREAD);
    }
  }

  @Test
  void shouldAlwaysRetryWhileTheSchemaRegistryIsDownButReportTheAppAsFailing() {
    final SerializationException outage = new SerializationException("cannot read the schema",
        new SchemaRegistryUnavailableException("registry answered 503", null));

    for (int i = 0; i < 20; i++) {
      assertThat(failures.failed(outage, false, i * 1_000L)).isEqualTo(REPLACE_THREAD);
    }

    assertThat(failures.failingAt(25_000)).isTrue();
    assertThat(failures.failingAt(29_000)).as("ten seconds after the last failure").isFalse();
  }

  @Test
  void shouldStopTheAppWhenTheGlobalStoreThreadFails() {
    assertThat(failures.failed(poison, true, 0)).isEqualTo(SHUTDOWN_CLIENT);
  }

  @Test
  void shouldNotBeFailingBeforeAnyFailure() {
    assertThat(failures.failingAt(0)).isFalse();
  }
}
