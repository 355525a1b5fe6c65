package io.zerolayer.contract.serde;

import java.time.Duration;

/** Makes the client a registry URL calls for. */
public final class SchemaRegistryClients {

  private static final String MOCK_SCHEME = "mock://";

  private SchemaRegistryClients() {
  }

  /**
   * An HTTP client for an http(s) URL; a fresh in-process registry for {@code mock://...},
   * which unit tests share by sharing the returned client.
   */
  public static SchemaRegistryClient create(final SerdeConfig config) {
    return create(config, HttpSchemaRegistryClient.DEFAULT_PATIENCE);
  }

  /**
   * As {@link #create(SerdeConfig)}, with a bound on how long one call is tried while the
   * registry does not answer (a caller inside a Kafka transaction gives up before the broker
   * times the transaction out and fences its producer).
   */
  public static SchemaRegistryClient create(final SerdeConfig config, final Duration patience) {
    if (config.registryUrl().startsWith(MOCK_SCHEME)) {
      return new InMemorySchemaRegistry();
    }
    return new HttpSchemaRegistryClient(config.registryUrl(), config.basicAuthUserInfo(), config.tls(), patience);
  }
}
