package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PortRetryTest {

  @TempDir
  Path dir;

  private final AtomicInteger starts = new AtomicInteger();

  @Test
  void shouldStartAgainWhileTheLogSaysAPortWasTaken() throws Exception {
    final Path log = dir.resolve("child.log");

    final String started = PortRetry.start("a child", List.of(log), () -> {
      if (starts.incrementAndGet() == 1) {
        write(log, "java.net.BindException: " + PortRetry.PORT_TAKEN);
        throw new LocalStackException("child exited with code 1 while starting.");
      }
      return "up";
    });

    assertThat(started).isEqualTo("up");
    assertThat(starts).hasValue(2);
  }

  @Test
  void shouldStartAgainWhenTheLogOfAnyOfItsJvmsSaysAPortWasTaken() throws Exception {
    final Path first = dir.resolve("node-1.log");
    final Path second = dir.resolve("node-2.log");
    write(first, "started");

    final String started = PortRetry.start("a cluster", List.of(first, second), () -> {
      if (starts.incrementAndGet() == 1) {
        write(second, "java.net.BindException: " + PortRetry.PORT_TAKEN);
        throw new LocalStackException("node 2 exited with code 1 while starting.");
      }
      return "up";
    });

    assertThat(started).isEqualTo("up");
    assertThat(starts).hasValue(2);
  }

  @Test
  void shouldNotStartAgainForAnotherFailureNorMoreThanThreeTimes() throws Exception {
    final Path log = dir.resolve("child.log");
    write(log, "java.lang.OutOfMemoryError");
    assertThatThrownBy(() -> PortRetry.start("a child", List.of(log), this::fail))
        .isInstanceOf(LocalStackException.class);
    assertThat(starts).hasValue(1);

    starts.set(0);
    write(log, PortRetry.PORT_TAKEN);
    assertThatThrownBy(() -> PortRetry.start("a child", List.of(log), this::fail))
        .isInstanceOf(LocalStackException.class);
    assertThat(starts).hasValue(PortRetry.ATTEMPTS);
  }

  private String fail() {
    starts.incrementAndGet();
    throw new LocalStackException("child exited with code 1 while starting.");
  }

  private static void write(final Path log, final String text) {
    try {
      Files.writeString(log, text);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
