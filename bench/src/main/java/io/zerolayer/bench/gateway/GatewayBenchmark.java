package io.zerolayer.bench.gateway;

import static java.util.Objects.requireNonNull;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import io.zerolayer.bench.JitQuiet;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The same streamed chat completions from one client, straight to an engine and through
 * Zerolayer's gateway to the same engine, side by side: at each rate a request goes each way at
 * every tick, in turns, so both meet the same machine at the same moments. The client is
 * langchain4j's OpenAI module, as an application would bring it.
 */
public final class GatewayBenchmark {

  /**
   * @param rates requests a second each way, one phase each
   * @param duration how long each phase is measured
   * @param warmup how long each phase runs at least before it is measured
   * @param maxWarmup how long each phase may run before it is measured while the JIT is still at work
   * @param outputTokens tokens of every answer (the engine always generates them all)
   */
  public record Plan(List<Integer> rates, Duration duration, Duration warmup, Duration maxWarmup, int outputTokens,
      String model) {
    public Plan {
      rates = List.copyOf(rates);
      JitQuiet.check(warmup, maxWarmup);
    }
  }

  /**
   * One rate's figures, each way, and the cores used while the measured requests were sent.
   *
   * @param warmedUp how long the rate ran before it was measured
   * @param ownCores cores this JVM used: the layer's apps, the client and the stand-in engine
   * @param compilerCores this JVM's compile time as cores, waits for a core included (NaN where the JVM does
   *     not say)
   * @param childCores cores the broker and the schema registry used
   */
  public record Phase(int rate, PathFigures direct, PathFigures gateway, Duration warmedUp, double ownCores,
      double compilerCores, double childCores) {
  }

  private static final Duration DRAIN = Duration.ofSeconds(60);

  private final OpenAiStreamingChatModel direct;
  private final OpenAiStreamingChatModel gateway;
  private final PrintStream out;

  /**
   * @param directUrl the engine's OpenAI base URL
   * @param gatewayUrl the gateway's OpenAI base URL
   * @param apiKey a tenant's key, for the gateway
   */
  public GatewayBenchmark(final String directUrl, final String gatewayUrl, final String apiKey, final Plan plan,
      final PrintStream out) {
    this.direct = client(directUrl, "engine-needs-no-key", plan);
    this.gateway = client(gatewayUrl, apiKey, plan);
    this.out = requireNonNull(out, "out");
  }

  private static OpenAiStreamingChatModel client(final String baseUrl, final String key, final Plan plan) {
    return OpenAiStreamingChatModel.builder().baseUrl(baseUrl).apiKey(key).modelName(plan.model())
        .maxTokens(plan.outputTokens()).timeout(Duration.ofSeconds(60)).build();
  }

  /** Runs every phase of the plan, one after the other. */
  public List<Phase> run(final Plan plan) throws InterruptedException {
    final List<Phase> phases = new ArrayList<>();
    for (final int rate : plan.rates()) {
      out.printf("==> %d requests/s each way: %d s warm-up (up to %d s while the JIT is at work), %d s measured%n",
          rate, plan.warmup().toSeconds(), plan.maxWarmup().toSeconds(), plan.duration().toSeconds());
      final Phase phase = phase(rate, plan);
      out.printf("    direct %d answered (%d errors), through Zerolayer %d answered (%d refused at the door,"
          + " %d errors)%n", phase.direct().answered(), phase.direct().errors(), phase.gateway().answered(),
          phase.gateway().refused(), phase.gateway().errors());
      phase.gateway().errorKinds().forEach((kind, count) -> out.printf("    through Zerolayer, %d x %s%n", count,
          kind));
      phase.direct().errorKinds().forEach((kind, count) -> out.printf("    direct, %d x %s%n", count, kind));
      out.printf("    cores busy while the measured requests were sent: %.2f in this JVM (the layer, the client and"
          + " the engine; its JIT compiling %.2f, as compile time), %.2f in the broker and registry%n",
          phase.ownCores(), phase.compilerCores(), phase.childCores());
      phases.add(phase);
    }
    return phases;
  }

  private Phase phase(final int rate, final Plan plan) throws InterruptedException {
    final PathFigures directFigures = new PathFigures();
    final PathFigures gatewayFigures = new PathFigures();
    final long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
    final long measuredTicks = plan.duration().toNanos() / periodNanos;
    final AtomicLong tick = new AtomicLong();
    // The first measured tick: none until the warm-up is over.
    final AtomicLong measureFrom = new AtomicLong(Long.MAX_VALUE);
    final AtomicInteger open = new AtomicInteger();
    final AtomicReference<CpuReading> measuredFrom = new AtomicReference<>();
    final AtomicReference<CpuReading> measuredTo = new AtomicReference<>();
    final CountDownLatch sent = new CountDownLatch(1);
    final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    final Duration warmedUp;
    try {
      clock.scheduleAtFixedRate(() -> {
        final long i = tick.getAndIncrement();
        final long from = measureFrom.get();
        final boolean measured = i >= from;
        // The CPU is read once as measuring starts and once as it ends: a reading walks the process
        // tree, no work for every tick of the measured window.
        if (measured && i - from >= measuredTicks) {
          if (measuredTo.get() == null) {
            measuredTo.set(CpuReading.now());
            sent.countDown();
          }
          return;
        }
        if (measured && measuredFrom.get() == null) {
          measuredFrom.set(CpuReading.now());
        }
        // Turns: which way goes first changes every tick.
        final boolean directFirst = i % 2 == 0;
        send(directFirst ? direct : gateway, measured ? (directFirst ? directFigures : gatewayFigures) : null,
            plan, i, open);
        send(directFirst ? gateway : direct, measured ? (directFirst ? gatewayFigures : directFigures) : null,
            plan, i, open);
      }, 0, periodNanos, TimeUnit.NANOSECONDS);
      warmedUp = warmUp(plan);
      measureFrom.set(tick.get() + 1);
      if (!sent.await(plan.duration().plus(DRAIN).toMillis(), TimeUnit.MILLISECONDS)) {
        out.printf("    the measured requests were not all sent within %d s of the warm-up's end%n",
            plan.duration().plus(DRAIN).toSeconds());
        measuredTo.compareAndSet(null, CpuReading.now());
      }
      final long drainUntil = System.nanoTime() + DRAIN.toNanos();
      while (open.get() > 0 && System.nanoTime() - drainUntil < 0) {
        TimeUnit.MILLISECONDS.sleep(100);
      }
      if (open.get() > 0) {
        out.printf("    %d answers still open after the %d s drain; counted as errors%n", open.get(),
            DRAIN.toSeconds());
      }
    } finally {
      clock.shutdownNow();
    }
    final CpuReading from = measuredFrom.get();
    final CpuReading to = measuredTo.get();
    return new Phase(rate, directFigures, gatewayFigures, warmedUp, to.ownCoresSince(from),
        to.compilerCoresSince(from), to.childCoresSince(from));
  }

  /** Runs until {@link JitQuiet} says the warm-up may end; how long it ran. */
  private Duration warmUp(final Plan plan) throws InterruptedException {
    final JitQuiet quiet = new JitQuiet(plan.warmup(), plan.maxWarmup(), out);
    while (!quiet.warmEnough()) {
      TimeUnit.MILLISECONDS.sleep(100);
    }
    return quiet.warmed();
  }

  /** Sends one request; its figures go to {@code figures}, or nowhere during the warm-up. */
  private static void send(final OpenAiStreamingChatModel model, final PathFigures figures, final Plan plan,
      final long index, final AtomicInteger open) {
    open.incrementAndGet();
    final StreamTiming timing = new StreamTiming(System.nanoTime());
    // The first end counts: a client may report the connection closing after the answer ended.
    final AtomicBoolean ended = new AtomicBoolean();
    final ChatRequest request = ChatRequest.builder()
        .messages(UserMessage.from("Request " + index + ": what does a routing layer cost?")).build();
    model.chat(request, new StreamingChatResponseHandler() {
      @Override
      public void onPartialResponse(final String partial) {
        timing.piece(System.nanoTime());
      }

      @Override
      public void onCompleteResponse(final ChatResponse response) {
        if (ended.getAndSet(true)) {
          return;
        }
        if (figures != null) {
          figures.add(timing, plan.outputTokens());
        }
        open.decrementAndGet();
      }

      @Override
      public void onError(final Throwable error) {
        if (ended.getAndSet(true)) {
          return;
        }
        if (figures != null) {
          figures.error(error);
        }
        open.decrementAndGet();
      }
    });
  }
}
