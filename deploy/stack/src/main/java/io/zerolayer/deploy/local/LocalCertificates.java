package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made for one run of a local stack, and the PKCS12 stores it issues: a
 * truststore holding the authority, and per party a keystore holding its key and a certificate
 * whose subject is {@code CN=<name>} (the broker maps it to principal {@code User:<name>}),
 * valid for 127.0.0.1 and localhost. Every store has the same generated password. Nothing here is
 * fit for a real cluster, whose certificates come from the organisation's own authority.
 */
public final class LocalCertificates {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String STORE_TYPE = "PKCS12";
  private static final Duration VALIDITY = Duration.ofDays(2);

  private final Path dir;
  private final String password;
  private final KeyPair authorityKeys;
  private final X509Certificate authority;
  private final SecureRandom random = new SecureRandom();

  private LocalCertificates(final Path dir, final String password, final KeyPair authorityKeys,
      final X509Certificate authority) {
    this.dir = dir;
    this.password = password;
    this.authorityKeys = authorityKeys;
    this.authority = authority;
  }

  /** A new authority, and its truststore written to {@code dir/truststore.p12}. */
  public static LocalCertificates create(final Path dir) {
    requireNonNull(dir, "dir");
    try {
      Files.createDirectories(dir);
      final SecureRandom random = new SecureRandom();
      final byte[] secret = new byte[18];
      random.nextBytes(secret);
      final KeyPair keys = newKeys();
      final X500Name name = new X500Name("CN=zerolayer-local-authority");
      final X509v3CertificateBuilder builder = builder(name, name, keys, random)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      final LocalCertificates certificates = new LocalCertificates(dir,
          Base64.getUrlEncoder().withoutPadding().encodeToString(secret), keys, sign(builder, keys));
      certificates.writeTruststore();
      return certificates;
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot write certificates under " + dir + "; check it is writable", e);
    } catch (final GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("Cannot make a certificate authority with this JVM's EC keys: " + e, e);
    }
  }

  /** The truststore: the authority every certificate here chains to. */
  public Path truststore() {
    return dir.resolve("truststore.p12");
  }

  /** The password of every store (and of every key in them). */
  public String password() {
    return password;
  }

  /** The type of every store. */
  public String storeType() {
    return STORE_TYPE;
  }

  /**
   * Issues a key and certificate for {@code name} and writes them to {@code dir/<name>.p12},
   * or returns that file when it was issued before.
   */
  public Path keystore(final String name) {
    if (!NAME.matcher(requireNonNull(name, "name")).matches()) {
      throw new IllegalArgumentException("A certificate name is letters, digits, '.', '_' and '-': " + name);
    }
    final Path file = dir.resolve(name + ".p12");
    if (Files.exists(file)) {
      return file;
    }
    try {
      final KeyPair keys = newKeys();
      final X509v3CertificateBuilder builder = builder(new X500Name(authority.getSubjectX500Principal().getName()),
          new X500Name("CN=" + name), keys, random)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
      final X509Certificate certificate = sign(builder, authorityKeys);
      final KeyStore store = emptyStore();
      store.setKeyEntry(name, keys.getPrivate(), password.toCharArray(), new Certificate[] {certificate, authority});
      write(store, file);
      return file;
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot write " + file + "; check it is writable", e);
    } catch (final GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("Cannot issue a certificate for " + name + ": " + e, e);
    }
  }

  private void writeTruststore() throws IOException, GeneralSecurityException {
    final KeyStore store = emptyStore();
    store.setCertificateEntry("zerolayer-local-authority", authority);
    write(store, truststore());
  }

  private KeyStore emptyStore() throws IOException, GeneralSecurityException {
    final KeyStore store = KeyStore.getInstance(STORE_TYPE);
    store.load(null, null);
    return store;
  }

  private void write(final KeyStore store, final Path file) throws IOException, GeneralSecurityException {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    }
  }

  private static KeyPair newKeys() throws GeneralSecurityException {
    final KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static X509v3CertificateBuilder builder(final X500Name issuer, final X500Name subject, final KeyPair keys,
      final SecureRandom random) {
    final Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, random).add(BigInteger.ONE),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
  }

  private static X509Certificate sign(final X509v3CertificateBuilder builder, final KeyPair signer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(
        builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate())));
  }
}
