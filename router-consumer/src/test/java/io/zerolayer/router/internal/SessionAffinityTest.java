package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionAffinityTest {

  @Test
  void shouldRememberEachTenantsSessionsApartAndForgetTheLeastRecentlyUsed() {
    final SessionAffinity sessions = new SessionAffinity(2);
    sessions.served("acme", "chat-1", "gpu-0");
    sessions.served("globex", "chat-1", "gpu-1");

    assertThat(sessions.instance("acme", "chat-1")).isEqualTo("gpu-0");
    assertThat(sessions.instance("globex", "chat-1")).isEqualTo("gpu-1");

    sessions.instance("acme", "chat-1");
    sessions.served("acme", "chat-2", "gpu-2");

    assertThat(sessions.instance("globex", "chat-1")).isNull();
    assertThat(sessions.instance("acme", "chat-1")).isEqualTo("gpu-0");
    assertThat(sessions.instance("acme", null)).isNull();
  }
}
