package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** CANCELs as the worker's poll thread hands them on, with the runs on threads of their own. */
@Timeout(10)
class ActiveRunsTest {

  private final WorkerFixture fixture = new WorkerFixture();
  private final ActiveRuns active = new ActiveRuns();

  @Test
  void shouldEndTheSequenceWithACancelledFinalChunkWhenTheClientGoesAwayDuringGeneration() throws Exception {
    final StepEngine engine = new StepEngine(true);
    final TaskRun run = fixture.run(task(), engine);
    final Thread thread = start(run);
    engine.emitted.await();

    active.cancel(cancel(2, true));
    thread.join();

    final List<TokenChunk> chunks = fixture.chunks();
    assertThat(chunks).extracting(TokenChunk::getStartIndex).containsExactly(0, 0, 2);
    assertThat(chunks.get(1).getTokens()).containsExactly("a", "b");
    final TokenChunk last = chunks.get(2);
    assertThat(last.getLast()).isTrue();
    assertThat(last.getFinishReason()).isEqualTo("cancelled");
    assertThat(last.getTokens()).isEmpty();
    assertThat(chunks).allSatisfy(chunk -> {
      assertThat(List.of(chunk.getEpoch(), chunk.getInstanceId(), chunk.getAttemptId()))
          .isEqualTo(List.of(2, "gpu-5", chunks.get(0).getAttemptId()));
      assertThat(chunk.getRouting()).isEqualTo(RoutingOutcome.DIRECT);
    });
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
    assertThat(fixture.completion().getOutputTokens()).isEqualTo(2);
  }

  @Test
  void shouldStopAStaleAttemptWithoutAFinalChunkOnAPlainCancel() throws Exception {
    final StepEngine engine = new StepEngine(true);
    final TaskRun run = fixture.run(task(), engine);
    final Thread thread = start(run);
    engine.emitted.await();

    active.cancel(cancel(2, false));
    thread.join();

    assertThat(fixture.chunks()).extracting(TokenChunk::getLast).containsExactly(false, false);
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
  }

  @Test
  void shouldEndASequenceWhoseTaskStillWaitsInTheEnginesQueueAtOnce() throws Exception {
    final StepEngine queue = new StepEngine(false);
    final TaskRun run = fixture.run(task(), queue);
    final Thread thread = start(run);
    queue.entered.await();

    active.cancel(cancel(2, true));

    // Said before the engine lets the task go: a queued task sends no more heartbeats.
    assertThat(fixture.chunks()).extracting(TokenChunk::getLast).containsExactly(false, true);
    thread.join();
    assertThat(fixture.chunks()).hasSize(2);
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
  }

  @Test
  void shouldEndASequenceWhoseRunHasNotBegunWithoutAskingTheEngine() {
    final StepEngine engine = new StepEngine(true);
    final TaskRun run = fixture.run(task(), engine);
    active.add(run);

    active.cancel(cancel(2, true));
    run.run();

    assertThat(engine.entered.getCount()).as("the engine never saw it").isEqualTo(1);
    assertThat(fixture.chunks()).extracting(TokenChunk::getLast).containsExactly(false, true);
    assertThat(fixture.chunks().get(1).getFinishReason()).isEqualTo("cancelled");
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
  }

  @Test
  void shouldEndATaskWhoseCancelWasReadBeforeIt() {
    final StepEngine engine = new StepEngine(true);
    active.cancel(cancel(2, true));

    final TaskRun run = fixture.run(task(), engine);
    active.add(run);
    run.run();

    assertThat(engine.entered.getCount()).isEqualTo(1);
    assertThat(fixture.chunks()).extracting(TokenChunk::getLast).containsExactly(false, true);
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
  }

  @Test
  void shouldLeaveARunAloneWhenTheCancelNamesAnotherEpoch() {
    final TaskRun run = fixture.run(task(), new StepEngine(true));
    active.add(run);

    active.cancel(cancel(1, true));

    assertThat(run.cancelled()).isFalse();
    assertThat(fixture.chunks()).isEmpty();
  }

  @Test
  void shouldEndAResumedAttemptOnlyOnceItsClaimCaughtUpWithTheStream() {
    final WorkerFixture.Resumable resumable = fixture.resumable();
    final StepEngine engine = new StepEngine(true);
    final TaskRun run = fixture.run(resumable.task(), engine);
    active.add(run);

    active.cancel(cancel(2, true));

    assertThat(fixture.chunks()).as("its place in the stream is not known before the catch-up").isEmpty();
    run.run();
    assertThat(engine.entered.getCount()).isEqualTo(1);
    assertThat(fixture.chunks()).extracting(TokenChunk::getStartIndex).containsExactly(2, 3);
    assertThat(fixture.chunks().get(1).getLast()).isTrue();
    assertThat(fixture.completion().getOutcome()).isEqualTo(CompletionOutcome.CANCELLED);
  }

  @Test
  void shouldReportWhatEachRunTheEngineHasBegunMayStillGenerate() throws Exception {
    final StepEngine fresh = new StepEngine(true);
    final StepEngine resumed = new StepEngine(true);
    final StepEngine waiting = new StepEngine(false);
    final List<Thread> threads = List.of(start(fixture.run(task(), fresh)),
        start(fixture.run(DispatchTask.newBuilder(task("s-2")).setResumeFromIndex(10).build(), resumed)),
        start(fixture.run(task("s-3"), waiting)));
    fresh.emitted.await();
    resumed.emitted.await();
    waiting.entered.await();

    assertThat(active.tokensToLimit()).as("a limit of 40 less the index of the next token; s-3 waits in the"
        + " engine's queue").containsExactly(entry("s-1", 38), entry("s-2", 28));

    active.cancel(cancel("s-2", 2, false));
    threads.get(1).join();
    assertThat(active.tokensToLimit()).as("a cancelled run generates nothing more").containsOnlyKeys("s-1");

    active.cancel(cancel("s-1", 2, true));
    active.cancel(cancel("s-3", 2, true));
    threads.get(0).join();
    threads.get(2).join();
    assertThat(active.tokensToLimit()).isEmpty();
  }

  private Thread start(final TaskRun run) {
    active.add(run);
    final Thread thread = new Thread(() -> {
      try {
        run.run();
      } finally {
        active.finished(run);
      }
    }, "task-run");
    thread.start();
    return thread;
  }

  private static DispatchTask task() {
    return task("s-1");
  }

  private static DispatchTask task(final String sequenceId) {
    return DispatchTask.newBuilder().setSequenceId(sequenceId).setInstanceId("gpu-5").setPrompt("hello")
        .setInputTokens(1).setMaxOutputTokens(40).setSeed(7).setTraceId("t-1").setDispatchedAtMs(0)
        .setEpoch(2).setRouting(RoutingOutcome.DIRECT).build();
  }

  private static InstanceCommand cancel(final int epoch, final boolean endsSequence) {
    return cancel("s-1", epoch, endsSequence);
  }

  private static InstanceCommand cancel(final String sequenceId, final int epoch, final boolean endsSequence) {
    return InstanceCommand.newBuilder().setInstanceId("gpu-5").setType(CommandType.CANCEL).setSequenceId(sequenceId)
        .setEpoch(epoch).setEndsSequence(endsSequence).setReason("test").setIssuedAtMs(0).build();
  }

  /**
   * An engine that, once asked, either begins at once and emits two tokens, or leaves the task
   * in its queue; either way it looks at the sink once a millisecond, as a decode step would,
   * and stops when the task is cancelled.
   */
  private static final class StepEngine implements InferenceEngine {

    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch emitted = new CountDownLatch(1);
    private final boolean begins;

    StepEngine(final boolean begins) {
      this.begins = begins;
    }

    @Override
    public String generate(final DispatchTask task, final TokenSink sink) {
      entered.countDown();
      if (begins) {
        sink.started();
        sink.emit(List.of("a", "b"));
        emitted.countDown();
      }
      while (!sink.cancelled()) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
      // Tokens of the step that was under way when the cancel came: the worker drops them.
      sink.emit(List.of("late"));
      return "stop";
    }

    @Override
    public void onCommand(final InstanceCommand command) {
    }
  }
}
