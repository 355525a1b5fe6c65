package io.zerolayer.gateway.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Hands one request's stream from the client's reader thread, which must not block, to the
 * HTTP thread that writes it: each new part of the stream, or the error that ended it.
 */
final class ChunkQueue {

  /** What the HTTP thread takes next: a part of the stream, or why there is no more. */
  sealed interface Item permits Part, Broken {
  }

  record Part(ResponseChunk chunk) implements Item {
  }

  record Broken(Throwable cause) implements Item {
  }

  private final LinkedBlockingQueue<Item> items = new LinkedBlockingQueue<>();

  void offer(final ResponseChunk chunk) {
    items.add(new Part(chunk));
  }

  void fail(final Throwable cause) {
    items.add(new Broken(cause));
  }

  /** The next item, or null when none came within {@code timeout}. */
  Item next(final Duration timeout) throws InterruptedException {
    return items.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
