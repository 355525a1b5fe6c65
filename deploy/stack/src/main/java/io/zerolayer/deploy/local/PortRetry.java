package io.zerolayer.deploy.local;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Starts a child on free ports again, on others, when one was taken between the pick and the
 * bind: a port the OS gave up ({@link FreePorts}) may go to any client's connection meanwhile.
 */
final class PortRetry {

  /** What a child's log says when a port it was given was taken. */
  static final String PORT_TAKEN = "Address already in use";
  /** Starts at most this many times. */
  static final int ATTEMPTS = 3;

  private PortRetry() {
  }

  /**
   * @param what the child, for the message printed before starting again
   * @param logs the logs of the child's JVMs, one of which says whether a port was taken
   * @param start starts the child once, on ports it picks itself
   */
  static <T> T start(final String what, final List<Path> logs, final Supplier<T> start) {
    for (int attempt = 1; ; attempt++) {
      try {
        return start.get();
      } catch (final LocalStackException e) {
        if (attempt == ATTEMPTS || logs.stream().noneMatch(log -> LogTail.contains(log, PORT_TAKEN))) {
          throw e;
        }
        System.err.println("A port of " + what + " was taken before it could bind it; starting again on other"
            + " ports (attempt " + (attempt + 1) + " of " + ATTEMPTS + ")");
      }
    }
  }
}
