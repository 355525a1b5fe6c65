package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.score.ScoreRows;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** An instance restarted cold just as a request is routed to it, before the heatmap can show it. */
@ExtendWith(TestCluster.class)
class ColdRestartIT {

  /** Tries at the race: the heatmap may show the restart before the router decides. */
  private static final int TRIES = 5;
  /** The rig's weight load; a request moved at once is answered well within it. */
  private static final long WEIGHT_LOAD_MS = 8_000;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldMoveAtOnceARequestThatReachedAnInstanceBeforeTheHeatmapShowedItsRestart(
      final TestCluster.Handle cluster) throws Exception {
    try (StreamingRig rig = StreamingRig.start(cluster);
        RecordCollector<String, StallDetected> stalls = new RecordCollector<>(rig.settings(),
            rig.catalogue().name(Topics.STALLS), new StringDeserializer(), rig.serdes().value(Topics.STALLS)
            .deserializer())) {
      for (int i = 0; i < TRIES; i++) {
        // Given one instance busy with a stream, so that the next request goes to the other
        final StreamingRig.Story busy = rig.requestStory("busy-" + i, 40 + i);
        await().atMost(Duration.ofSeconds(30)).until(() -> busy.answer().isDone()
            || rig.tokensSoFar(busy.request().getSequenceId()) >= 4);
        if (busy.answer().isDone()) {
          // Throttled at once, as while this busy machine's heatmap has both instances out of service.
          continue;
        }
        final String owner = busy.first().getInstanceId();
        final String idle = rig.fleet().instanceIds().stream().filter(id -> !id.equals(owner)).findFirst()
            .orElseThrow();

        // When the idle one restarts cold and a request comes at once
        rig.fleet().gpu(idle).coldRestart();
        final long sentMs = System.currentTimeMillis();
        final StreamingRig.Story raced = rig.requestStory("raced-" + i, 50 + i);
        if (!raced.first().getInstanceId().equals(idle)) {
          // The router saw the restart first: no race this time; load the weights and try again.
          rig.fleet().gpu(idle).onCommand(preWarm(idle));
          await().atMost(Duration.ofSeconds(30)).until(() -> warm(rig, idle));
          continue;
        }

        // Then its worker hands it back to the routers itself, without queueing it behind the load
        final String id = raced.request().getSequenceId();
        stalls.awaitUntil(records -> records.stream().map(ConsumerRecord::value).anyMatch(s -> s.getSequenceId()
            .equals(id) && s.getEpoch() == 1 && s.getReason().contains("handed the attempt back")
            && s.getReason().contains(idle + " is loading its weights")), Duration.ofSeconds(30));
        // And the busy one serves all of it, long before the load would have ended (the first of the
        // handback and the heatmap's row of the restart moves it)
        final Response response = raced.answer().get(60, TimeUnit.SECONDS);
        final List<RoutingDecision> all = rig.decisions().awaitFor(List.of(id), Duration.ofSeconds(5)).get(id);
        if (response.outcome() == RoutingOutcome.THROTTLED && all.get(all.size() - 1).getReason()
            .contains("no other instance can take")) {
          // This busy machine had the heatmap take the busy one out of service too: no backup to test.
          rig.fleet().gpu(idle).onCommand(preWarm(idle));
          await().atMost(Duration.ofSeconds(30)).until(() -> warm(rig, idle));
          continue;
        }
        assertThat(response.text()).as("%s: %s", response.outcome(), rig.decisions().describe(id))
            .isEqualTo(ExpectedText.of(raced.request()));
        assertThat(all).extracting(RoutingDecision::getEpoch).startsWith(1, 2);
        assertThat(all).as("one backup however many reports of the attempt: %s", rig.decisions().describe(id))
            .filteredOn(d -> d.getEpoch() == 2).hasSize(1);
        assertThat(all.get(1).getInstanceId()).isEqualTo(owner);
        assertThat(all.get(1).getDecidedAtMs() - sentMs).as("moved before the weight load ended")
            .isLessThan(WEIGHT_LOAD_MS / 2);
        return;
      }
      fail("In %d tries the router saw the restart before the request came, or had no backup; nothing raced",
          TRIES);
    }
  }

  /** Loaded, and the router's heatmap shows it: the row before the restart said warm too. */
  private static boolean warm(final StreamingRig rig, final String instanceId) {
    final InstanceScore row = rig.pipeline().routerHeatmap().row(instanceId);
    return !rig.fleet().gpu(instanceId).loading() && row != null && ScoreRows.warm(row);
  }

  private static InstanceCommand preWarm(final String instanceId) {
    return InstanceCommand.newBuilder().setInstanceId(instanceId).setType(CommandType.PRE_WARM).setSequenceId(null)
        .setEpoch(0).setReason("test: load the weights for the next try").setIssuedAtMs(System.currentTimeMillis())
        .build();
  }
}
