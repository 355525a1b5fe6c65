package io.zerolayer.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.client.SequenceQuery;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SequencePrefixClientTest {

  private static final List<String> TOKENS = List.of("Hello", ",", " wörld", " 🚀", ".");

  private final StandInTokenBuffer tokenBuffer = new StandInTokenBuffer();
  private final SequencePrefixClient client =
      new SequencePrefixClient(tokenBuffer.url() + "/", StandInTokenBuffer.TOKEN, Duration.ofMillis(500),
          Duration.ofMillis(10));

  @AfterEach
  void stop() {
    tokenBuffer.close();
  }

  @Test
  void shouldReturnTheFirstTokensOfTheSequenceInOrder() throws Exception {
    tokenBuffer.holds("seq 1/a", TOKENS);

    assertThat(client.prefix("seq 1/a", 4)).containsExactly("Hello", ",", " wörld", " 🚀");
  }

  @Test
  void shouldNotAskTokenBufferForAnEmptyPrefix() throws Exception {
    assertThat(client.prefix("seq-1", 0)).isEmpty();
    assertThat(tokenBuffer.calls).hasValue(0);
  }

  @Test
  void shouldAskAgainWhileTheStoreIsRebalancing() throws Exception {
    tokenBuffer.holds("seq-1", TOKENS);
    tokenBuffer.rebalancingFor(SequenceQuery.ATTEMPTS - 1);

    assertThat(client.prefix("seq-1", 2)).containsExactly("Hello", ",");
    assertThat(tokenBuffer.calls).hasValue(SequenceQuery.ATTEMPTS);
  }

  @Test
  void shouldGiveUpAfterABoundedNumberOf503Answers() {
    tokenBuffer.holds("seq-1", TOKENS);
    tokenBuffer.rebalancingFor(SequenceQuery.ATTEMPTS + 5);

    assertThatThrownBy(() -> client.prefix("seq-1", 2))
        .isInstanceOf(SequencePrefixException.class)
        .hasMessageContaining("still answered 503 after " + SequenceQuery.ATTEMPTS + " calls")
        .hasMessageContaining("the sequence store is being assigned");
    assertThat(tokenBuffer.calls).hasValue(SequenceQuery.ATTEMPTS);
  }

  @Test
  void shouldSayWhenTokenBufferRefusesItsQueryToken() {
    tokenBuffer.holds("seq-1", TOKENS);
    final SequencePrefixClient stranger = new SequencePrefixClient(tokenBuffer.url(), "guessed",
        Duration.ofMillis(500), Duration.ofMillis(10));

    assertThatThrownBy(() -> stranger.prefix("seq-1", 2))
        .isInstanceOf(SequencePrefixException.class)
        .hasMessageContaining("refused the query token (HTTP 401)")
        .hasMessageContaining("tokenbuffer.query.token");
  }

  @Test
  void shouldSayTheSequenceIsUnknown() {
    assertThatThrownBy(() -> client.prefix("seq-unknown", 3))
        .isInstanceOf(SequencePrefixException.class)
        .hasMessageContaining(tokenBuffer.url() + "/v1/sequences/seq-unknown")
        .hasMessageContaining("holds no sequence seq-unknown")
        .hasMessageContaining("cannot be resumed from index 3");
  }

  @Test
  void shouldSayWhenFewerTokensArePersistedThanTheResumeIndex() {
    tokenBuffer.holds("seq-1", TOKENS);

    assertThatThrownBy(() -> client.prefix("seq-1", 6))
        .isInstanceOf(SequencePrefixException.class)
        .hasMessageContaining("holds 5 tokens of seq-1, fewer than the resume index 6");
  }
}
