package io.zerolayer.contract.serde;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/** {@link SchemaRegistryClient} over the Confluent REST API, with id and schema caches. */
final class HttpSchemaRegistryClient implements SchemaRegistryClient {

  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  /**
   * How long one call is tried, again and again, while the registry fails on its side (5xx) or
   * cannot be reached: about as long as six tries of the longest wait for an answer.
   */
  static final Duration DEFAULT_PATIENCE = Duration.ofSeconds(60);
  private static final long FIRST_BACKOFF_MS = 100;

  private final ObjectMapper json = new ObjectMapper();
  /**
   * HTTP/1.1, as registries are served: the default would offer an h2c upgrade, and over HTTP/2
   * a burst of calls fails with "too many concurrent streams" beyond the server's stream limit.
   */
  private final HttpClient http;
  private final String baseUrl;
  private final String authorization;
  private final long patienceNanos;
  private final Map<Integer, CompletableFuture<Schema>> schemasById = new ConcurrentHashMap<>();
  private final Map<SubjectSchema, CompletableFuture<Integer>> idsBySubjectAndSchema = new ConcurrentHashMap<>();

  /** Cache key; Avro caches a schema's hash, and equal instances compare by identity first. */
  private record SubjectSchema(String subject, Schema schema) {
  }

  HttpSchemaRegistryClient(final String baseUrl, final String basicAuthUserInfo) {
    this(baseUrl, basicAuthUserInfo, null, DEFAULT_PATIENCE);
  }

  /**
   * @param tls the truststore of an https registry, or null for the JVM's default
   * @param patience how long one call is tried before its caller is told the registry is unavailable
   */
  HttpSchemaRegistryClient(final String baseUrl, final String basicAuthUserInfo, final RegistryTls tls,
      final Duration patience) {
    requireNonNull(baseUrl, "baseUrl");
    if (patience.isNegative() || patience.isZero()) {
      throw new IllegalArgumentException("patience must be positive, was " + patience);
    }
    this.patienceNanos = patience.toNanos();
    final HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(TIMEOUT);
    http = (tls == null ? builder : builder.sslContext(tls.sslContext())).build();
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.authorization = basicAuthUserInfo == null ? null
        : "Basic " + Base64.getEncoder().encodeToString(basicAuthUserInfo.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Registers the schema; a conflict that outlasts {@link #send}'s second try is answered by
   * looking the identical schema up, since the registry may hold it already from a first try
   * whose answer was lost (the request timed out, and its retry met the artifact it created).
   * When the subject does not hold it, the conflict is the answer.
   */
  @Override
  public int register(final String subject, final Schema schema) {
    return cached(idsBySubjectAndSchema, new SubjectSchema(subject, schema), () -> {
      try {
        return send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema)).path("id").asInt();
      } catch (final SchemaRegistryException conflict) {
        if (conflict.status() != 409) {
          throw conflict;
        }
        try {
          return lookUpId(subject, schema);
        } catch (final SchemaRegistryException lookup) {
          conflict.addSuppressed(lookup);
          throw conflict;
        }
      }
    });
  }

  @Override
  public int idOf(final String subject, final Schema schema) {
    return cached(idsBySubjectAndSchema, new SubjectSchema(subject, schema), () -> lookUpId(subject, schema));
  }

  /** The id under which the subject holds this very schema; refused (404) when it does not. */
  private int lookUpId(final String subject, final Schema schema) {
    return send("POST", "/subjects/" + encode(subject), schemaBody(schema)).path("id").asInt();
  }

  @Override
  public Schema schemaById(final int id) {
    return cached(schemasById, id,
        () -> new Schema.Parser().parse(send("GET", "/schemas/ids/" + id, null).path("schema").asText()));
  }

  /**
   * The cached answer, or the answer of one call: callers that miss together wait for the first
   * one's call instead of each sending their own (a fleet's first records all miss at once). A
   * failed call is not cached: its waiters get its failure, and the next caller tries again.
   */
  private static <K, V> V cached(final Map<K, CompletableFuture<V>> cache, final K key, final Supplier<V> call) {
    final CompletableFuture<V> cachedCall = cache.get(key);
    if (cachedCall != null) {
      return await(cachedCall);
    }
    final CompletableFuture<V> mine = new CompletableFuture<>();
    final CompletableFuture<V> known = cache.putIfAbsent(key, mine);
    if (known != null) {
      return await(known);
    }
    try {
      final V value = call.get();
      mine.complete(value);
      return value;
    } catch (final RuntimeException e) {
      cache.remove(key, mine);
      mine.completeExceptionally(e);
      throw e;
    }
  }

  private static <V> V await(final CompletableFuture<V> call) {
    try {
      return call.join();
    } catch (final CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  @Override
  public void setCompatibility(final String subject, final String level) {
    final String path = subject == null ? "/config" : "/config/" + encode(subject);
    send("PUT", path, json.createObjectNode().put("compatibility", level).toString());
  }

  @Override
  public void close() {
    schemasById.clear();
    idsBySubjectAndSchema.clear();
  }

  private String schemaBody(final Schema schema) {
    return json.createObjectNode().put("schema", schema.toString()).toString();
  }

  /**
   * Sends a call, again after a growing pause when the registry fails on its side (a real one
   * can, for example when concurrent registrations contend for its store) or is not reachable,
   * until the client's patience runs out. A conflict (409) is tried once more: Apicurio answers
   * 409 to the loser of two concurrent first registrations of a subject, and registering is
   * idempotent, so a real incompatibility is refused again. Any other refusal (4xx) is final.
   */
  private JsonNode send(final String method, final String path, final String body) {
    final long deadline = System.nanoTime() + patienceNanos;
    long backoffMs = FIRST_BACKOFF_MS;
    for (int attempt = 1; ; attempt++) {
      try {
        // At least a millisecond: a pause can overshoot the deadline, and HTTP refuses a timeout of 0.
        final long leftNanos = Math.max(1_000_000, deadline - System.nanoTime());
        return sendOnce(method, path, body, Duration.ofNanos(Math.min(TIMEOUT.toNanos(), leftNanos)));
      } catch (final SchemaRegistryException e) {
        final boolean transientFailure = e.status() == 0 || e.status() >= 500 || e.status() == 409 && attempt == 1;
        if (!transientFailure || System.nanoTime() + backoffMs * 1_000_000 >= deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(backoffMs);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SchemaRegistryException("Interrupted while calling the schema registry", e);
      }
      backoffMs *= 2;
    }
  }

  private JsonNode sendOnce(final String method, final String path, final String body, final Duration timeout) {
    final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(timeout)
        .header("Accept", CONTENT_TYPE)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", CONTENT_TYPE);
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    final HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (final IOException e) {
      throw new SchemaRegistryException("Schema registry at " + baseUrl + " is not reachable (" + e
          + "); check schema.registry.url and that the registry is running", e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SchemaRegistryException("Interrupted while calling the schema registry", e);
    }
    return parse(method, path, response);
  }

  private JsonNode parse(final String method, final String path, final HttpResponse<String> response) {
    final JsonNode node;
    try {
      node = response.body().isEmpty() ? json.createObjectNode() : json.readTree(response.body());
    } catch (final IOException e) {
      throw new SchemaRegistryException(response.statusCode(), "Schema registry answered " + method + " "
          + path + " with HTTP " + response.statusCode() + " and a body that is not JSON: " + response.body());
    }
    if (response.statusCode() / 100 != 2) {
      throw new SchemaRegistryException(response.statusCode(), "Schema registry refused " + method + " " + path
          + ": HTTP " + response.statusCode() + ", error " + node.path("error_code").asText("?")
          + ": " + node.path("message").asText(response.body()));
    }
    return node;
  }

  private static String encode(final String subject) {
    return URLEncoder.encode(subject, StandardCharsets.UTF_8);
  }
}
