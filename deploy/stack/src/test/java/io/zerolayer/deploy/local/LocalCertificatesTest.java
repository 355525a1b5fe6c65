package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCertificatesTest {

  @TempDir
  Path dir;

  @Test
  void shouldIssueAKeystoreWhoseCertificateNamesThePartyAndChainsToTheTruststoresAuthority() throws Exception {
    final LocalCertificates certificates = LocalCertificates.create(dir);

    final KeyStore keystore = load(certificates.keystore("router"), certificates.password());
    final KeyStore truststore = load(certificates.truststore(), certificates.password());

    final Certificate[] chain = keystore.getCertificateChain("router");
    final X509Certificate leaf = (X509Certificate) chain[0];
    final X509Certificate authority = (X509Certificate) truststore.getCertificate("zerolayer-local-authority");
    assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=router");
    leaf.verify(authority.getPublicKey());
    assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
    assertThat(authority.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(leaf.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
        .contains("127.0.0.1", "localhost");
    assertThat(keystore.getKey("router", certificates.password().toCharArray())).isNotNull();
  }

  @Test
  void shouldIssueOncePerNameAndRefuseANameThatIsNotAPrincipal() {
    final LocalCertificates certificates = LocalCertificates.create(dir);

    final Path first = certificates.keystore("worker");

    assertThat(certificates.keystore("worker")).isEqualTo(first);
    assertThatThrownBy(() -> certificates.keystore("CN=x,O=y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("certificate name");
  }

  private static KeyStore load(final Path file, final String password) throws Exception {
    final KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }
}
