package io.zerolayer.runtime.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TenantSignatureTest {

  private final TenantSignature signature = new TenantSignature("a-secret-of-at-least-thirty-two-bytes");

  @Test
  void shouldVerifyWhatItSigned() {
    final String signed = signature.sign("seq-1", "acme", 1_000L);

    assertThat(signature.verifies(signed, "seq-1", "acme", 1_000L)).isTrue();
  }

  @Test
  void shouldRefuseASignatureMovedToAnotherTenantSequenceOrTime() {
    final String signed = signature.sign("seq-1", "acme", 1_000L);

    assertThat(signature.verifies(signed, "seq-1", "globex", 1_000L)).isFalse();
    assertThat(signature.verifies(signed, "seq-2", "acme", 1_000L)).isFalse();
    assertThat(signature.verifies(signed, "seq-1", "acme", 1_001L)).isFalse();
    assertThat(signature.verifies(null, "seq-1", "acme", 1_000L)).isFalse();
  }

  @Test
  void shouldRefuseASignatureUnderAnotherSecret() {
    final String forged = new TenantSignature("another-secret-of-at-least-32-bytes!").sign("seq-1", "acme", 1_000L);

    assertThat(signature.verifies(forged, "seq-1", "acme", 1_000L)).isFalse();
  }

  @Test
  void shouldRefuseAShortSecretAndSayHowToMakeOne() {
    assertThatThrownBy(() -> new TenantSignature("short"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 32")
        .hasMessageContaining("openssl rand -hex 32");
  }
}
