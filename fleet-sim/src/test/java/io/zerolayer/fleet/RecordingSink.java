package io.zerolayer.fleet;

import io.zerolayer.worker.TokenSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/** Keeps what a GPU hands over for one sequence, with the clock's time of each chunk. */
public final class RecordingSink implements TokenSink {

  private final SimClock clock;
  private final IntConsumer afterChunk;
  private final List<List<String>> chunks = new CopyOnWriteArrayList<>();
  private final List<Long> chunkNanos = new CopyOnWriteArrayList<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean cancelled = new AtomicBoolean();

  public RecordingSink(final SimClock clock) {
    this(clock, chunk -> { });
  }

  /**
   * @param afterChunk told the number (from 1) of each chunk once it is kept
   */
  public RecordingSink(final SimClock clock, final IntConsumer afterChunk) {
    this.clock = clock;
    this.afterChunk = afterChunk;
  }

  @Override
  public void started() {
    started.set(true);
  }

  @Override
  public void emit(final List<String> tokens) {
    if (tokens.isEmpty()) {
      return;
    }
    chunks.add(tokens);
    chunkNanos.add(clock.nanoTime());
    afterChunk.accept(chunks.size());
  }

  @Override
  public boolean cancelled() {
    return cancelled.get();
  }

  public void cancel() {
    cancelled.set(true);
  }

  public boolean wasStarted() {
    return started.get();
  }

  public int chunkCount() {
    return chunks.size();
  }

  /** How many tokens each chunk held, in order. */
  public List<Integer> chunkSizes() {
    return chunks.stream().map(List::size).toList();
  }

  /** When each chunk came, clock nanoseconds. */
  public List<Long> chunkNanos() {
    return List.copyOf(chunkNanos);
  }

  public String text() {
    return String.join("", chunks.stream().flatMap(List::stream).toList());
  }
}
