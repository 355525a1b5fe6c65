package io.zerolayer.contract.serde;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The truststore a registry client checks an https registry's certificate against, when the
 * JVM's default truststore does not hold the registry's authority (Confluent's keys
 * {@code schema.registry.ssl.truststore.location}, {@code ...password}, {@code ...type}).
 *
 * @param truststore the store's file
 * @param password its password
 * @param type {@code PKCS12} or {@code JKS}
 */
public record RegistryTls(String truststore, String password, String type) {

  public static final String TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
  public static final String TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
  public static final String TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";

  private static final Set<String> TYPES = Set.of("PKCS12", "JKS");

  public RegistryTls {
    requireNonNull(truststore, "truststore");
    requireNonNull(password, "password");
    type = type == null || type.isBlank() ? "PKCS12" : type.toUpperCase(Locale.ROOT);
    if (!TYPES.contains(type)) {
      throw new IllegalArgumentException(TRUSTSTORE_TYPE + " is " + type + "; the registry client reads PKCS12 or"
          + " JKS stores (convert a PEM file with keytool -importcert)");
    }
  }

  /** A TLS context that trusts the store's certificates. */
  public SSLContext sslContext() {
    try (InputStream in = Files.newInputStream(Path.of(truststore))) {
      final KeyStore store = KeyStore.getInstance(type);
      store.load(in, password.toCharArray());
      final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      final SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (final IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("Cannot read the registry's truststore " + truststore + " (" + type + "): "
          + e.getMessage() + "; check " + TRUSTSTORE_LOCATION + ", its password and its type", e);
    }
  }
}
