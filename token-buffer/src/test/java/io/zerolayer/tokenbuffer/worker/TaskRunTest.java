package io.zerolayer.tokenbuffer.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class TaskRunTest {

  private final MockProducer<String, TokenChunk> tokens = new MockProducer<>(true, null, new StringSerializer(),
      none());
  private final MockProducer<String, Completion> completions = new MockProducer<>(true, null,
      new StringSerializer(), none());
  private final WorkerOutput output = new WorkerOutput(tokens, completions, "tokens", "completions");

  @Test
  void shouldHandBackATaskSentAsToAWarmInstanceWhileTheEngineLoadsItsWeights() {
    final LoadingEngine engine = new LoadingEngine(true);

    new TaskRun(task(true), engine, output).run();

    assertThat(engine.generated).as("the engine never saw it").isFalse();
    final List<TokenChunk> chunks = tokens.history().stream().map(ProducerRecord::value).toList();
    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).getFailure()).contains("gpu-5 is loading its weights", "goes back");
    assertThat(completions.history()).singleElement()
        .satisfies(r -> assertThat(r.value().getOutcome()).isEqualTo(CompletionOutcome.FAILED));
  }

  @Test
  void shouldQueueATaskSentKnowinglyToTheColdInstanceOrToAnEngineThatIsNotLoading() {
    final LoadingEngine loading = new LoadingEngine(true);
    final LoadingEngine loaded = new LoadingEngine(false);

    new TaskRun(task(false), loading, output).run();
    new TaskRun(task(true), loaded, output).run();

    assertThat(loading.generated).isTrue();
    assertThat(loaded.generated).isTrue();
    assertThat(tokens.history()).allSatisfy(r -> assertThat(r.value().getFailure()).isNull());
    assertThat(completions.history()).hasSize(2)
        .allSatisfy(r -> assertThat(r.value().getOutcome()).isEqualTo(CompletionOutcome.FINISHED));
  }

  private static DispatchTask task(final boolean expectsWarm) {
    return DispatchTask.newBuilder().setSequenceId("s-1").setEpoch(1).setInstanceId("gpu-5").setPrompt("hello")
        .setInputTokens(1).setMaxOutputTokens(4).setSeed(7).setTraceId("t-1").setDispatchedAtMs(0)
        .setExpectsWarm(expectsWarm).build();
  }

  private static <T> Serializer<T> none() {
    return (topic, value) -> new byte[0];
  }

  /** An engine that says whether it is loading and generates two tokens when asked. */
  private static final class LoadingEngine implements InferenceEngine {

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
