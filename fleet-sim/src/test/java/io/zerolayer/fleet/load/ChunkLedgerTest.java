package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.ResponseChunk;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ChunkLedgerTest {

  private final ChunkLedger ledger = new ChunkLedger();

  @Test
  void shouldHandOverAWatchedSequencesChunksWithTheirTimesAtTheFinalChunk() {
    final CompletableFuture<List<ChunkArrival>> chunks = ledger.watch("s-1");

    ledger.accept(chunk("s-1", 0, List.of(" a", " b"), false, "gpu-1", 1), 100);
    ledger.accept(chunk("other", 0, List.of(" x"), true, "gpu-1", 1), 150);
    assertThat(chunks).isNotDone();
    ledger.accept(chunk("s-1", 2, List.of(" c"), true, "gpu-2", 2), 200);

    assertThat(chunks.join())
        .containsExactly(new ChunkArrival(100, 2, "gpu-1", 1), new ChunkArrival(200, 1, "gpu-2", 2));
    assertThat(ledger.watched()).isZero();
  }

  @Test
  void shouldDropAForgottenSequence() {
    final CompletableFuture<List<ChunkArrival>> chunks = ledger.watch("s-1");

    ledger.forget("s-1");
    ledger.accept(chunk("s-1", 0, List.of(" a"), true, "gpu-1", 1), 100);

    assertThat(chunks).isCancelled();
    assertThat(ledger.watched()).isZero();
  }

  private static ResponseChunk chunk(final String sequenceId, final int start, final List<String> tokens,
      final boolean last, final String instance, final int epoch) {
    return ResponseChunk.newBuilder().setSequenceId(sequenceId).setStartIndex(start).setTokens(tokens).setLast(last)
        .setInstanceId(instance).setEpoch(epoch).setEmittedAtMs(0).build();
  }
}
