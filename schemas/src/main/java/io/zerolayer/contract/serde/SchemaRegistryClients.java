package io.zerolayer.contract.serde;

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
    if (config.registryUrl().startsWith(MOCK_SCHEME)) {
      return new InMemorySchemaRegistry();
    }
    return new HttpSchemaRegistryClient(config.registryUrl(), config.basicAuthUserInfo(), config.tls());
  }
}
