package io.zerolayer.runtime;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How an app's {@code main} runs until SIGTERM or Ctrl-C, then closes what it started. */
public final class ShutdownSignal {

  private static final Logger LOG = LoggerFactory.getLogger(ShutdownSignal.class);

  private ShutdownSignal() {
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
