package io.zerolayer.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How an app's {@code main} runs until SIGTERM or Ctrl-C, then closes what it started. */
public final class ShutdownSignal {

  private static final Logger LOG = LoggerFactory.getLogger(ShutdownSignal.class);

  private ShutdownSignal() {
  }

  /**
   * Ends the process with exit code 1 once {@code failure} completes: an app whose work stopped on
   * an error must not linger as a process that looks alive. The exit runs on its own thread, so
   * that closing the app (the shutdown hook) never waits for the thread that failed.
   */
  public static void exitOnFailure(final String app, final CompletableFuture<?> failure) {
    failure.whenComplete((value, error) -> {
      final Thread exit = new Thread(() -> {
        LOG.error("{} stopped on an error ({}); exiting with code 1 to be restarted", app,
            error != null ? error.toString() : String.valueOf(value));
        System.exit(1);
      }, app + "-exit");
      exit.start();
    });
  }

  /** Blocks until the JVM is asked to stop; closes the resources, in order, on the way out. */
  public static void awaitThenClose(final String app, final AutoCloseable... resources) throws InterruptedException {
    final CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (final AutoCloseable resource : resources) {
        try {
          resource.close();
        } catch (final Exception e) {
          LOG.warn("{}: closing {} failed", app, resource, e);
        }
      }
      stopped.countDown();
    }, app + "-shutdown"));
    LOG.info("{} running; stop it with SIGTERM or Ctrl-C", app);
    stopped.await();
  }
}
