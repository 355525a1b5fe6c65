package io.zerolayer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares text with a checked-in expectation under {@code src/test/resources/golden/}, so a
 * change (of a topology's description, say) is always deliberate. Run the test with
 * {@code -Dzerolayer.golden.update=true} to rewrite the file after a deliberate change.
 */
public final class GoldenFile {

  private GoldenFile() {
  }

  public static void assertMatches(final String name, final String actual) throws IOException {
    final Path file = Path.of("src", "test", "resources", "golden", name);
    if (Boolean.getBoolean("zerolayer.golden.update")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertThat(file).as("golden file %s; rerun with -Dzerolayer.golden.update=true after a deliberate change",
        file.toAbsolutePath()).exists();
    assertThat(actual).as("content of golden file %s (rerun with -Dzerolayer.golden.update=true after a"
        + " deliberate change)", file).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
