package io.zerolayer.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

/**
 * An OAuth 2 authorization server for the security tests, on 127.0.0.1: the client-credentials
 * grant at {@link #tokenUrl()} (client id and secret in HTTP basic auth, as Kafka's login handler
 * sends them) issues an RS256 token whose subject is the client id, and {@link #jwksUrl()} serves
 * the signing key, as an identity provider would.
 */
final class OAuthServer implements AutoCloseable {

  private final HttpServer server;
  private final RsaJsonWebKey key;
  private final Map<String, String> secrets;
  private final String audience;

  /**
   * @param secrets each client id's secret
   * @param audience the audience every token names
   */
  OAuthServer(final Map<String, String> secrets, final String audience) throws IOException, JoseException {
    this.secrets = Map.copyOf(secrets);
    this.audience = audience;
    key = RsaJwkGenerator.generateJwk(2048);
    key.setKeyId("zerolayer-test");
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/token", this::token);
    server.createContext("/jwks", exchange -> answer(exchange, 200, new JsonWebKeySet(key).toJson()));
    server.start();
  }

  String tokenUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
  }

  String jwksUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks";
  }

  private void token(final HttpExchange exchange) throws IOException {
    final String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    final String client = client(exchange.getRequestHeaders().getFirst("Authorization"));
    if (!body.contains("grant_type=client_credentials") || client == null) {
      answer(exchange, 401, "{\"error\": \"invalid_client\"}");
      return;
    }
    try {
      final JwtClaims claims = new JwtClaims();
      claims.setSubject(client);
      claims.setAudience(audience);
      claims.setIssuer("zerolayer-test-idp");
      claims.setIssuedAtToNow();
      claims.setExpirationTimeMinutesInTheFuture(60);
      final JsonWebSignature jws = new JsonWebSignature();
      jws.setPayload(claims.toJson());
      jws.setKey(key.getPrivateKey());
      jws.setKeyIdHeaderValue(key.getKeyId());
      jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
      answer(exchange, 200, "{\"access_token\": \"" + jws.getCompactSerialization()
          + "\", \"token_type\": \"Bearer\", \"expires_in\": 3600}");
    } catch (final JoseException e) {
      answer(exchange, 500, "{\"error\": \"server_error\"}");
    }
  }

  /** The client id of a basic-auth header whose secret is right, else null. */
  private String client(final String authorization) {
    if (authorization == null || !authorization.startsWith("Basic ")) {
      return null;
    }
    final String decoded = new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8);
    final int colon = decoded.indexOf(':');
    if (colon < 0) {
      return null;
    }
    final String id = URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8);
    final String secret = URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8);
    return secret.equals(secrets.get(id)) ? id : null;
  }

  private static void answer(final HttpExchange exchange, final int status, final String json) throws IOException {
    final byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
