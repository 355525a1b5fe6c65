package io.zerolayer.deploy.broker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * Main-class wrapper for a child JVM: {@code ParentGuard <realMainClass> args...} runs the real
 * main class and ends the JVM with {@code System.exit(0)} as soon as the process that started it
 * is gone. The exit runs the real application's shutdown hooks, so a broker or a registry stops
 * cleanly instead of living on as an orphan after its parent was killed (even by {@code kill -9},
 * which gives the parent no chance to stop its children).
 *
 * <p>A launcher should pass its own pid as {@code -D}{@value #PARENT_PID_PROPERTY}: a parent that
 * dies before this JVM gets to look has already been replaced by init, and only the pid tells.
 */
public final class ParentGuard {

  /** System property holding the pid of the process to watch; by default, the parent process. */
  public static final String PARENT_PID_PROPERTY = "zerolayer.parent.pid";

  private ParentGuard() {
  }

  /**
   * @param args the fully qualified name of the real main class, then its arguments
   */
  public static void main(final String[] args) throws Throwable {
    if (args.length == 0) {
      System.err.println("Usage: java -cp ... " + ParentGuard.class.getName() + " <main class> [args...]");
      System.exit(2);
    }
    final Method realMain = realMain(args[0]);
    watchParent();
    try {
      realMain.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (final InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Method realMain(final String className) throws ClassNotFoundException, NoSuchMethodException {
    final Method method = Class.forName(className).getMethod("main", String[].class);
    if (!Modifier.isStatic(method.getModifiers())) {
      throw new NoSuchMethodException(className + ".main(String[]) is not static");
    }
    return method;
  }

  private static void watchParent() {
    final ProcessHandle self = ProcessHandle.current();
    final String expectedPid = System.getProperty(PARENT_PID_PROPERTY);
    final Optional<ProcessHandle> parent = expectedPid == null
        ? self.parent()
        : ProcessHandle.of(Long.parseLong(expectedPid.trim())).filter(candidate -> startedBefore(candidate, self));
    if (parent.isEmpty() || !parent.get().isAlive()) {
      exitBecauseParentIsGone(self, expectedPid == null ? "unknown" : expectedPid);
      return;
    }
    final ProcessHandle watched = parent.get();
    // For a process that is not our child the JDK polls (at most every 5 s), which bounds how
    // long an orphan lingers; no thread of ours stays alive for it.
    watched.onExit().thenRun(() -> exitBecauseParentIsGone(self, String.valueOf(watched.pid())));
  }

  /** False if the pid was reused by a process younger than this one, which cannot be our parent. */
  private static boolean startedBefore(final ProcessHandle candidate, final ProcessHandle self) {
    final Optional<Instant> candidateStart = candidate.info().startInstant();
    final Optional<Instant> selfStart = self.info().startInstant();
    return candidateStart.isEmpty() || selfStart.isEmpty() || !candidateStart.get().isAfter(selfStart.get());
  }

  private static void exitBecauseParentIsGone(final ProcessHandle self, final String parentPid) {
    System.err.println("ParentGuard: parent process " + parentPid + " of process " + self.pid()
        + " is gone; exiting so that the shutdown hooks stop the application.");
    System.exit(0);
  }
}
