package io.zerolayer.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseAssemblerTest {

  @Test
  void shouldAssembleChunksThatContinueEachOther() {
    final ResponseAssembler assembler = new ResponseAssembler("s");

    assertThat(assembler.add(chunk(0, false, "a", "b"))).isNull();
    final Response response = assembler.add(chunk(2, true, "c"));

    assertThat(response.text()).isEqualTo("abc");
    assertThat(response.chunks()).isEqualTo(2);
    assertThat(response.outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldRefuseAGapOrARepeat() {
    final ResponseAssembler gap = new ResponseAssembler("s");
    assertThatThrownBy(() -> gap.add(chunk(1, false, "b"))).hasMessageContaining("broke order");

    final ResponseAssembler repeat = new ResponseAssembler("s");
    repeat.add(chunk(0, false, "a"));
    assertThatThrownBy(() -> repeat.add(chunk(0, false, "a"))).hasMessageContaining("chunk starts at 0");
  }

  private static ResponseChunk chunk(final int start, final boolean last, final String... tokens) {
    return ResponseChunk.newBuilder().setSequenceId("s").setStartIndex(start).setTokens(List.of(tokens))
        .setLast(last).setOutcome(last ? RoutingOutcome.DIRECT : null).setEmittedAtMs(0).build();
  }
}
