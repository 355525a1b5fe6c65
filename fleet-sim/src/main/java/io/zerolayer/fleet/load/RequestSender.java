package io.zerolayer.fleet.load;

import java.util.concurrent.CompletableFuture;

/** Where a load sends its requests: the pipeline's ingress topic, or a fake in tests. */
public interface RequestSender {

  /**
   * Publishes a request under {@code sequenceId} and follows its response stream.
   *
   * @return completes with the whole stream once its final chunk has arrived, chunk arrival times
   *     on the load's clock; completes exceptionally when the request or its stream fails. The
   *     caller cancels it when it stops waiting (a timeout), so the sender can forget the sequence.
   */
  CompletableFuture<Reply> send(String sequenceId, RequestSpec spec);
}
