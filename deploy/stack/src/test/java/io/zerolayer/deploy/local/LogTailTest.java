package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

  @TempDir
  Path dir;

  @Test
  void shouldTellWhetherALineOfTheLogSaysAPortWasTaken() throws Exception {
    final Path log = dir.resolve("kafka-broker.log");
    Files.writeString(log, "starting\nCaused by: java.net.BindException: Address already in use\nstopped\n");
    final Path other = dir.resolve("other.log");
    Files.writeString(other, "starting\nstopped\n");

    assertThat(LogTail.contains(log, PortRetry.PORT_TAKEN)).isTrue();
    assertThat(LogTail.contains(other, PortRetry.PORT_TAKEN)).isFalse();
    assertThat(LogTail.contains(dir.resolve("missing.log"), PortRetry.PORT_TAKEN)).isFalse();
  }
}
