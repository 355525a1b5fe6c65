package io.zerolayer.deploy.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File chores in the stack's work dir. */
public final class WorkDirs {

  private WorkDirs() {
  }

  /** Deletes a directory and everything in it; does nothing if it does not exist. */
  public static void deleteRecursively(final Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(WorkDirs::delete);
    } catch (final UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static void delete(final Path path) {
    try {
      Files.delete(path);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
