package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.InstanceCommand;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs a worker holds, one per sequence, and the {@code CANCEL}s addressed to them. A plain
 * cancel stops a stale attempt; one that ends the sequence (its client went away) also has the
 * run end the stream. Such a cancel may be read before its task, since the two come on different
 * topics: it is remembered for a while, and the task ends as soon as it arrives. Runs are added
 * and cancelled on the worker's poll thread; they remove themselves from their own threads.
 */
final class ActiveRuns {

  /** Sequences ended before their task arrived that are remembered; the oldest are forgotten. */
  private static final int REMEMBERED_ENDS = 1_024;

  private final Map<String, TaskRun> bySequence = new ConcurrentHashMap<>();
  /** The epoch each ended sequence's cancel named (null: any); poll thread only. */
  private final Map<String, Integer> endedEarly = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(final Map.Entry<String, Integer> eldest) {
      return size() > REMEMBERED_ENDS;
    }
  };

  /** Holds a new run of its sequence; an older run of the sequence is cancelled. */
  void add(final TaskRun run) {
    requireNonNull(run, "run");
    final String sequenceId = run.task().getSequenceId();
    final TaskRun previous = bySequence.put(sequenceId, run);
    if (previous != null) {
      previous.cancel();
    }
    if (endedEarly.containsKey(sequenceId) && matches(endedEarly.get(sequenceId), run)) {
      endedEarly.remove(sequenceId);
      run.endSequence();
    }
  }

  /** Forgets a run that ended. */
  void finished(final TaskRun run) {
    bySequence.remove(run.task().getSequenceId(), run);
  }

  /** Applies a {@code CANCEL} to the run it names; other commands are not this class's. */
  void cancel(final InstanceCommand command) {
    if (command.getType() != CommandType.CANCEL || command.getSequenceId() == null) {
      return;
    }
    final TaskRun run = bySequence.get(command.getSequenceId());
    if (run == null) {
      if (command.getEndsSequence()) {
        endedEarly.put(command.getSequenceId(), command.getEpoch());
      }
      return;
    }
    if (!matches(command.getEpoch(), run)) {
      return;
    }
    if (command.getEndsSequence()) {
      run.endSequence();
    } else {
      run.cancel();
    }
  }

  /** What each run the engine is generating may still generate, by sequence id ({@link TaskRun#tokensToLimit}). */
  Map<String, Integer> tokensToLimit() {
    final Map<String, Integer> running = new TreeMap<>();
    bySequence.forEach((sequenceId, run) -> run.tokensToLimit().ifPresent(tokens -> running.put(sequenceId, tokens)));
    return running;
  }

  /** Lets each run still waiting in the engine's queue say it is alive. */
  void heartbeat() {
    bySequence.values().forEach(TaskRun::heartbeatIfWaiting);
  }

  /** Stops every run, leaving their streams as they are (the worker is closing). */
  void cancelAll() {
    bySequence.values().forEach(TaskRun::cancel);
  }

  private static boolean matches(final Integer epoch, final TaskRun run) {
    return epoch == null || Objects.equals(epoch, run.task().getEpoch());
  }
}
