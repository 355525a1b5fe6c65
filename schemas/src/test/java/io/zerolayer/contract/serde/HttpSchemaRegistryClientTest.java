package io.zerolayer.contract.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zerolayer.contract.avro.InstanceCommand;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The REST client against a local HTTP server that answers as a registry would. */
class HttpSchemaRegistryClientTest {

  private static final Schema SCHEMA = InstanceCommand.getClassSchema();
  private static final int CALLERS = 16;

  private final AtomicInteger calls = new AtomicInteger();
  private final CountDownLatch allCalled = new CountDownLatch(CALLERS);
  private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
  private HttpServer server;

  @AfterEach
  void stop() {
    callers.shutdownNow();
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void shouldSendOneCallWhenManyCallersMissTheCacheAtOnce() throws Exception {
    // Given a registry that answers once every caller has called, or after a second
    start(exchange -> {
      calls.incrementAndGet();
      allCalled.countDown();
      await(allCalled);
      answer(exchange, 200, "{\"id\": 7}");
    });
    final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url(), null);

    // When sixteen callers ask for the same schema's id at once
    final List<Future<Integer>> ids = new ArrayList<>();
    for (int i = 0; i < CALLERS; i++) {
      ids.add(callers.submit(() -> client.idOf("commands-value", SCHEMA)));
    }

    // Then each gets the id, from one call
    for (final Future<Integer> id : ids) {
      assertThat(id.get(10, TimeUnit.SECONDS)).isEqualTo(7);
    }
    assertThat(calls).hasValue(1);
    assertThat(client.idOf("commands-value", SCHEMA)).isEqualTo(7);
    assertThat(calls).hasValue(1);
  }

  @Test
  void shouldNotCacheARefusal() throws Exception {
    // Given a registry that does not know the schema at first, then does
    start(exchange -> {
      if (calls.incrementAndGet() == 1) {
        answer(exchange, 404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}");
      } else {
        answer(exchange, 200, "{\"id\": 9}");
      }
    });
    final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url(), null);

    // When a lookup is refused, then the next one calls again and gets the id
    assertThatThrownBy(() -> client.idOf("commands-value", SCHEMA)).isInstanceOf(SchemaRegistryException.class);
    assertThat(client.idOf("commands-value", SCHEMA)).isEqualTo(9);
    assertThat(calls).hasValue(2);
  }

  @Test
  void shouldTakeTheIdOfTheIdenticalSchemaWhenRegisteringItKeepsConflicting() throws Exception {
    // Given a registry that holds the schema already, from a first registration whose answer was lost
    final List<String> paths = new CopyOnWriteArrayList<>();
    start(exchange -> {
      paths.add(exchange.getRequestURI().getPath());
      if (exchange.getRequestURI().getPath().endsWith("/versions")) {
        answer(exchange, 409, "{\"error_code\": 409, \"message\": \"An artifact with ID 'tokens-value' already exists.\"}");
      } else {
        answer(exchange, 200, "{\"id\": 11, \"version\": 1}");
      }
    });
    final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url(), null);

    // When it is registered, then the lookup of the identical schema answers, after the conflict's second try
    assertThat(client.register("tokens-value", SCHEMA)).isEqualTo(11);
    assertThat(paths).containsExactly("/subjects/tokens-value/versions", "/subjects/tokens-value/versions",
        "/subjects/tokens-value");
  }

  @Test
  void shouldRefuseARegistrationThatConflictsWithWhatTheSubjectHolds() throws Exception {
    start(exchange -> {
      if (exchange.getRequestURI().getPath().endsWith("/versions")) {
        answer(exchange, 409, "{\"error_code\": 409, \"message\": \"Schema being registered is incompatible\"}");
      } else {
        answer(exchange, 404, "{\"error_code\": 40403, \"message\": \"Schema not found\"}");
      }
    });
    final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url(), null);

    assertThatThrownBy(() -> client.register("tokens-value", SCHEMA)).isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("409").hasMessageContaining("incompatible");
  }

  @Test
  void shouldGiveUpOnARegistryThatDoesNotAnswerOnceItsPatienceRunsOut() throws Exception {
    // Given a registry that takes every call and never answers (a paused process)
    final CountDownLatch never = new CountDownLatch(1);
    start(exchange -> {
      calls.incrementAndGet();
      try {
        never.await(30, TimeUnit.SECONDS);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(url(), null, null, Duration.ofMillis(500));

    // When a schema is asked for, then the caller is told the registry cannot be reached, long
    // before the default patience (a minute) would have let it go
    final long start = System.nanoTime();
    assertThatThrownBy(() -> client.schemaById(3)).isInstanceOf(SchemaRegistryException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isZero());
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    never.countDown();
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  private void start(final Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", handler::handle);
    server.start();
  }

  private String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void answer(final HttpExchange exchange, final int status, final String body) throws IOException {
    final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static void await(final CountDownLatch latch) {
    try {
      latch.await(1, TimeUnit.SECONDS);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
