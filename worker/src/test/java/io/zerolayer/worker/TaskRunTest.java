package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class TaskRunTest {

  private final TopicCatalogue catalogue = TopicCatalogue.unprefixed();
  private final MockProducer<String, SpecificRecord> producer = new MockProducer<>(true, null,
      new StringSerializer(), none());
  private final WorkerOutput output = new WorkerOutput(producer, catalogue);
  /** These tasks carry no prefix offset: nothing is read from the log. */
  private final StreamCatchUp catchUp = new StreamCatchUp(new MockConsumer<>("earliest"), (topic, bytes) -> {
    throw new AssertionError("read the tokens log");
  });

  @Test
  void shouldHandBackATaskSentAsToAWarmInstanceWhileTheEngineLoadsItsWeightsStraightToTheRouters() {
    final LoadingEngine engine = new LoadingEngine(true);

    new TaskRun(task(true), engine, output, catchUp).run();

    assertThat(engine.generated).as("the engine never saw it").isFalse();
    assertThat(sent(Topics.STALLS)).singleElement().satisfies(record -> {
      assertThat(record.key()).isEqualTo("s-1");
      final StallDetected stall = (StallDetected) record.value();
      assertThat(stall.getReason()).contains("handed the attempt back", "gpu-5 is loading its weights");
      assertThat(List.of(stall.getEpoch(), stall.getNextIndex(), stall.getRequestPartition()))
          .containsExactly(2, 9, 3);
      assertThat(stall.getRequestOffset()).isEqualTo(41L);
      assertThat(stall.getInstanceId()).isEqualTo("gpu-5");
    });
    assertThat(sent(Topics.TOKENS)).as("no failure chunk: the report went to the routers").isEmpty();
    assertThat(sent(Topics.COMPLETIONS)).singleElement()
        .satisfies(r -> assertThat(((Completion) r.value()).getOutcome()).isEqualTo(CompletionOutcome.FAILED));
  }

  @Test
  void shouldSayAHandbackInAFailureChunkWhenItsReportToTheRoutersCannotBeSent() {
    final MockProducer<String, SpecificRecord> refusing = new MockProducer<>(false, null, new StringSerializer(),
        none());

    new TaskRun(task(true), new LoadingEngine(true), new WorkerOutput(refusing, catalogue), catchUp).run();
    refusing.errorNext(new TimeoutException("broker gone"));

    assertThat(refusing.history()).filteredOn(r -> r.topic().equals(catalogue.name(Topics.TOKENS)))
        .singleElement().satisfies(r -> assertThat(((TokenChunk) r.value()).getFailure())
        .contains("gpu-5 is loading its weights"));
  }

  @Test
  void shouldSayAHandbackInAFailureChunkWhenTheTaskDoesNotSayWhereItsRequestIs() {
    final DispatchTask fromAnOlderRouter = DispatchTask.newBuilder(task(true)).setRequestPartition(-1)
        .setRequestOffset(-1).build();

    new TaskRun(fromAnOlderRouter, new LoadingEngine(true), output, catchUp).run();

    assertThat(sent(Topics.STALLS)).as("a router could not find the request").isEmpty();
    assertThat(sent(Topics.TOKENS)).singleElement().satisfies(r -> assertThat(((TokenChunk) r.value())
        .getFailure()).contains("gpu-5 is loading its weights"));
  }

  @Test
  void shouldQueueATaskSentKnowinglyToTheColdInstanceOrToAnEngineThatIsNotLoading() {
    final LoadingEngine loading = new LoadingEngine(true);
    final LoadingEngine loaded = new LoadingEngine(false);

    new TaskRun(task(false), loading, output, catchUp).run();
    new TaskRun(task(true), loaded, output, catchUp).run();

    assertThat(loading.generated).isTrue();
    assertThat(loaded.generated).isTrue();
    assertThat(sent(Topics.TOKENS)).allSatisfy(r -> assertThat(((TokenChunk) r.value()).getFailure()).isNull());
    assertThat(sent(Topics.STALLS)).isEmpty();
    assertThat(sent(Topics.COMPLETIONS)).hasSize(2)
        .allSatisfy(r -> assertThat(((Completion) r.value()).getOutcome()).isEqualTo(CompletionOutcome.FINISHED));
  }

  @Test
  void shouldTagEveryChunkWithHowTheTaskWasRouted() {
    final DispatchTask prewarmed = DispatchTask.newBuilder(task(false)).setRouting(RoutingOutcome.PREWARMED).build();

    new TaskRun(prewarmed, new LoadingEngine(false), output, catchUp).run();

    assertThat(sent(Topics.TOKENS)).as("claim, tokens, last").hasSize(3)
        .allSatisfy(r -> assertThat(((TokenChunk) r.value()).getRouting()).isEqualTo(RoutingOutcome.PREWARMED));
  }

  @Test
  void shouldReportHowLongTheAttemptWaitedInTheEnginesQueueOnlyWhenTheEngineSaysWhenItBegan() {
    final InferenceEngine queueing = new LoadingEngine(false) {
      @Override
      public String generate(final DispatchTask task, final TokenSink sink) {
        try {
          Thread.sleep(120);
        } catch (final InterruptedException e) {
          throw new AssertionError(e);
        }
        return super.generate(task, sink);
      }
    };
    final DispatchTask estimated = DispatchTask.newBuilder(task(false)).setQueueEstimateMs(90.0).build();
    new TaskRun(estimated, queueing, output, catchUp).run();
    final Completion queued = (Completion) sent(Topics.COMPLETIONS).get(0).value();
    producer.clear();

    new TaskRun(estimated, new SilentEngine(), output, catchUp).run();
    final Completion unsaid = (Completion) sent(Topics.COMPLETIONS).get(0).value();

    assertThat(queued.getQueuedMs()).isBetween(100.0, queued.getTtftMs());
    assertThat(queued.getQueueEstimateMs()).as("the router's estimate, beside the wait").isEqualTo(90.0);
    assertThat(unsaid.getQueuedMs()).isZero();
    assertThat(unsaid.getQueueEstimateMs()).as("no wait to set it against").isNull();
  }

  @Test
  void shouldReportHowManyTokensTheEnginesFirstEmissionHeldWhoseDecodeTheTimeToTheFirstTokenIncludes() {
    new TaskRun(task(false), new LoadingEngine(false), output, catchUp).run();
    final Completion twoAtOnce = (Completion) sent(Topics.COMPLETIONS).get(0).value();
    producer.clear();

    new TaskRun(task(false), new SilentEngine(), output, catchUp).run();
    final Completion one = (Completion) sent(Topics.COMPLETIONS).get(0).value();

    assertThat(twoAtOnce.getFirstChunkTokens()).isEqualTo(2);
    assertThat(one.getFirstChunkTokens()).isEqualTo(1);
  }

  @Test
  void shouldReportTheTimeFromTheDecisionToTheRunsStartAndNoneForARouterClockAhead() {
    final long decidedMs = System.currentTimeMillis() - 250;
    new TaskRun(DispatchTask.newBuilder(task(false)).setDispatchedAtMs(decidedMs).build(), new LoadingEngine(false),
        output, catchUp).run();
    final Completion late = (Completion) sent(Topics.COMPLETIONS).get(0).value();
    producer.clear();

    new TaskRun(DispatchTask.newBuilder(task(false)).setDispatchedAtMs(System.currentTimeMillis() + 60_000).build(),
        new LoadingEngine(false), output, catchUp).run();
    final Completion ahead = (Completion) sent(Topics.COMPLETIONS).get(0).value();

    assertThat(late.getHandoffMs()).isBetween(250.0, 250.0 + late.getTotalMs() + 1_000);
    assertThat(ahead.getHandoffMs()).isZero();
  }

  @Test
  void shouldKeepTheFinishedStreamsLastChunkWhenTheClientGoesAwayAfterIt() {
    final TaskRun run = new TaskRun(task(false), new LoadingEngine(false), output, catchUp);
    run.run();

    run.endSequence();

    assertThat(sent(Topics.TOKENS)).filteredOn(r -> ((TokenChunk) r.value()).getLast()).singleElement()
        .satisfies(r -> assertThat(((TokenChunk) r.value()).getFinishReason()).isEqualTo("stop"));
  }

  private List<ProducerRecord<String, SpecificRecord>> sent(final Topic<?, ?> topic) {
    return producer.history().stream().filter(r -> r.topic().equals(catalogue.name(topic))).toList();
  }

  private static DispatchTask task(final boolean expectsWarm) {
    return DispatchTask.newBuilder().setSequenceId("s-1").setInstanceId("gpu-5").setPrompt("hello")
        .setInputTokens(1).setMaxOutputTokens(4).setSeed(7).setTraceId("t-1").setDispatchedAtMs(0)
        .setEpoch(2).setResumeFromIndex(9).setRequestPartition(3).setRequestOffset(41)
        .setExpectsWarm(expectsWarm).build();
  }

  private static <T> Serializer<T> none() {
    return (topic, value) -> new byte[0];
  }

  /** An engine that generates a token without saying when it began, as an OpenAI-compatible server. */
  private static final class SilentEngine extends LoadingEngine {

    SilentEngine() {
      super(false);
    }

    @Override
    public String generate(final DispatchTask task, final TokenSink sink) {
      sink.emit(List.of("a"));
      return "stop";
    }
  }

  /** An engine that says whether it is loading and generates two tokens when asked. */
  private static class LoadingEngine implements InferenceEngine {

    private final boolean loading;
    private boolean generated;

    LoadingEngine(final boolean loading) {
      this.loading = loading;
    }

    @Override
    public String generate(final DispatchTask task, final TokenSink sink) {
      generated = true;
      sink.started();
      sink.emit(List.of("a", "b"));
      return "stop";
    }

    @Override
    public void onCommand(final InstanceCommand command) {
    }

    @Override
    public boolean loading() {
      return loading;
    }
  }
}
