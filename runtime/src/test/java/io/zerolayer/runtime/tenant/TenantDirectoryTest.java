package io.zerolayer.runtime.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TenantDirectoryTest {

  @TempDir
  Path dir;

  @Test
  void shouldReadTenantsFromTheJsonFile() throws Exception {
    final Path file = Files.writeString(dir.resolve("tenants.json"), """
        {"tenants": [{"id": "acme", "apiKeySha256": "%s", "requestsPerSecond": 5,
                      "tokensPerSecond": 2000, "burstSeconds": 2}]}
        """.formatted(Tenant.hashKey("secret")));

    final TenantDirectory tenants = TenantDirectory.fromFile(file);

    assertThat(tenants.find("acme")).hasValueSatisfying(t -> assertThat(t.accepts("secret")).isTrue());
    assertThat(tenants.find("other")).isEmpty();
  }

  @Test
  void shouldNameTheFileAndTheProblemWhenItCannotBeRead() throws Exception {
    final Path file = Files.writeString(dir.resolve("bad.json"), """
        {"tenants": [{"id": "x", "apiKeySha256": "00", "requestsPerSecond": 1, "tokensPerSecond": 1,
                      "burstSeconds": 1, "rps": 1}]}
        """);

    assertThatThrownBy(() -> TenantDirectory.fromFile(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad.json")
        .hasMessageContaining("rps");
  }

  @Test
  void shouldFindTheTenantAnApiKeyBelongsToAndNoneForAnUnknownKey() {
    final TenantDirectory tenants = TenantDirectory.of(List.of(
        new Tenant("acme", Tenant.hashKey("acme-key"), 1, 100, 1),
        new Tenant("globex", Tenant.hashKey("globex-key"), 1, 100, 1)));

    assertThat(tenants.findByKey("globex-key")).map(Tenant::id).contains("globex");
    assertThat(tenants.findByKey("nobody-key")).isEmpty();
    assertThat(tenants.findByKey(null)).isEmpty();
  }
}
