package io.zerolayer.bench;

import static io.zerolayer.bench.FiguresFixture.figures;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeCheckTest {

  @TempDir
  Path dir;

  @Test
  void shouldPassWhenEveryFileHasContentAndEveryPolicyAColumn() throws Exception {
    final String markdown = new PolicyBenchReport("c", List.of())
        .render(List.of(figures("zerolayer", 1, 0, 0, 0, 1, 1), figures("p2c", 1, 0, 0, 0, 1, 1)));

    assertThat(SmokeCheck.problems(results(markdown, "x"), List.of("zerolayer", "p2c"))).isEmpty();
  }

  @Test
  void shouldNameAnEmptyFileAndAMissingColumn() throws Exception {
    final String markdown = new PolicyBenchReport("c", List.of()).render(List.of(figures("zerolayer", 1, 0, 0, 0, 1,
        1)));

    assertThat(SmokeCheck.problems(results(markdown, ""), List.of("zerolayer", "epp"))).containsExactlyInAnyOrder(
        dir.resolve("b.png") + " is missing or empty", "the table has no column for epp");
  }

  private PolicyBenchmark.Results results(final String markdown, final String chartContent) throws Exception {
    final Path table = Files.writeString(dir.resolve("results.md"), markdown);
    final Path csv = Files.writeString(dir.resolve("outcomes.csv"), "header");
    final Path a = Files.writeString(dir.resolve("a.png"), "png");
    final Path b = Files.writeString(dir.resolve("b.png"), chartContent);
    return new PolicyBenchmark.Results(table, List.of(csv), List.of(a, b), markdown);
  }
}
