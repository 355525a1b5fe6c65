package io.zerolayer.worker.openai;

import io.zerolayer.worker.TokenSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** A sink that keeps what it is given, notes contract breaches, and can cancel itself after n tokens. */
final class RecordingSink implements TokenSink {

  final CountDownLatch startedSignal = new CountDownLatch(1);
  private final List<String> tokens = new ArrayList<>();
  private final List<String> breaches = new ArrayList<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private final int cancelAfterTokens;

  RecordingSink() {
    this(Integer.MAX_VALUE);
  }

  RecordingSink(final int cancelAfterTokens) {
    this.cancelAfterTokens = cancelAfterTokens;
  }

  @Override
  public void started() {
    if (!started.compareAndSet(false, true)) {
      note("started() called twice");
    }
    startedSignal.countDown();
  }

  @Override
  public synchronized void emit(final List<String> emitted) {
    if (!started.get()) {
      note("tokens emitted before started()");
    }
    if (cancelled.get()) {
      note("tokens emitted after cancel: " + emitted);
    }
    tokens.addAll(emitted);
    if (tokens.size() >= cancelAfterTokens) {
      cancelled.set(true);
    }
  }

  @Override
  public boolean cancelled() {
    return cancelled.get();
  }

  void cancel() {
    cancelled.set(true);
  }

  boolean wasStarted() {
    return started.get();
  }

  synchronized List<String> tokens() {
    return List.copyOf(tokens);
  }

  synchronized List<String> breaches() {
    return List.copyOf(breaches);
  }

  private synchronized void note(final String breach) {
    breaches.add(breach);
  }
}
