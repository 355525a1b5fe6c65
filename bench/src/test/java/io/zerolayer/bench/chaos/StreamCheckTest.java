package io.zerolayer.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.fleet.TextModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamCheckTest {

  private static final InferenceRequest REQUEST = InferenceRequest.newBuilder().setSequenceId("s").setTenantId("t")
      .setPrompt("Keep going 7").setMaxOutputTokens(40).setSeed(7).setSubmittedAtMs(0).build();
  private static final List<String> TEXT = tokens();

  @Test
  void shouldPassTheWholeTextHandedOnOnceInOrder() {
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(0, TEXT.subList(0, 5)), chunk(5, TEXT.subList(5, TEXT.size())))))
        .isEqualTo(new StreamCheck(false, false, false, false));
  }

  @Test
  void shouldFindATokenNeverHandedOn() {
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(0, TEXT.subList(0, 5)), chunk(6, TEXT.subList(6, TEXT.size())))))
        .isEqualTo(new StreamCheck(true, false, false, false));
  }

  @Test
  void shouldFindAnIndexHandedOnTwice() {
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(0, TEXT.subList(0, 5)), chunk(3, TEXT.subList(3, TEXT.size())))))
        .isEqualTo(new StreamCheck(false, true, false, false));
  }

  @Test
  void shouldFindAnIndexHandedOnAfterALaterOne() {
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(5, TEXT.subList(5, TEXT.size())), chunk(0, TEXT.subList(0, 5)))))
        .isEqualTo(new StreamCheck(false, false, true, false));
  }

  @Test
  void shouldFindATokenOfAnotherAttemptSplicedIn() {
    final List<String> spliced = new ArrayList<>(TEXT);
    spliced.set(9, TEXT.get(9).equals(" kafka") ? " epoch" : " kafka");
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(0, spliced))))
        .isEqualTo(new StreamCheck(false, false, false, true));
  }

  @Test
  void shouldFindTokensPastTheTextsEnd() {
    assertThat(StreamCheck.of(REQUEST, List.of(chunk(0, TEXT), chunk(TEXT.size(), List.of(" more")))).spliced())
        .isTrue();
  }

  private static ResponseChunk chunk(final int startIndex, final List<String> tokens) {
    return ResponseChunk.newBuilder().setSequenceId("s").setStartIndex(startIndex).setTokens(List.copyOf(tokens))
        .setEmittedAtMs(0).build();
  }

  private static List<String> tokens() {
    final TextModel.Chain chain = TextModel.start(REQUEST.getPrompt(), REQUEST.getSeed());
    final List<String> tokens = new ArrayList<>();
    for (int i = 0; i < TextModel.length(REQUEST.getPrompt(), REQUEST.getSeed(), REQUEST.getMaxOutputTokens(), false); i++) {
      tokens.add(chain.next());
    }
    return tokens;
  }
}
