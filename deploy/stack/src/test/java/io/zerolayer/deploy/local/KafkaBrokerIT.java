package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaBrokerIT {

  @TempDir
  Path workDir;

  @Test
  void shouldAnswerAdminRequestsAsASingleNodeClusterOnLoopback() throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(workDir); Admin admin = admin(broker)) {
      assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
      assertThat(admin.describeCluster().nodes().get()).singleElement()
          .satisfies(node -> assertThat(node.host() + ":" + node.port()).isEqualTo(broker.bootstrapServers()));
      assertThat(workDir.resolve("kraft-combined-logs/meta.properties")).isRegularFile();
    }
  }

  @Test
  void shouldLeaveNoBrokerProcessAfterCloseAndShutDownCleanly() throws Exception {
    final KafkaBroker broker = KafkaBroker.start(workDir);
    final long pid = broker.pid();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isPresent();

    broker.close();

    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(Files.readString(broker.logFile())).contains("[BrokerServer id=1] shut down completed");
  }

  @Test
  void shouldStartWithFreshDataWhenStartedAgainInTheSameWorkDir() throws Exception {
    try (KafkaBroker first = KafkaBroker.start(workDir); Admin admin = admin(first)) {
      admin.createTopics(List.of(new NewTopic("left-over", 1, (short) 1))).all().get();
    }

    try (KafkaBroker second = KafkaBroker.start(workDir); Admin admin = admin(second)) {
      assertThat(admin.listTopics().names().get()).doesNotContain("left-over");
    }
  }

  private static Admin admin(final KafkaBroker broker) {
    return Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
  }
}
