package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeCsvTest {

  @Test
  void shouldWriteOneRowPerRequestOfEveryPolicyAfterTheHeader() throws Exception {
    final PolicyRun first = new RunFixture().measuringFrom(1_000).completed("a-0", 500, 300, "gpu-1")
        .predicted("a-0", 1, "gpu-1", 280.25, 95.5).dispatch("a-0", 2, "gpu-2", 600).run("zerolayer");
    final PolicyRun second = new RunFixture().measuringFrom(1_000)
        .outcome("b-0", Status.TIMED_OUT, 1_250, 31_250, List.of()).run("round-robin");
    final StringWriter out = new StringWriter();

    OutcomeCsv.write(List.of(first, second), out);

    assertThat(out.toString().split("\r\n")).containsExactly(
        OutcomeCsv.HEADER,
        "zerolayer,a-0,false,0.500,COMPLETED,DIRECT,SHORT,100,64,4,300,100,12,38.57,1,gpu-1,,95.5,280.3,"
            + "1 gpu-1 DIRECT @0.000;2 gpu-2 CUTOVER @0.600 silent",
        "round-robin,b-0,true,1.250,TIMED_OUT,,SHORT,100,64,4,30000,,0,,,,why,,,");
  }

  @Test
  void shouldQuoteAFieldWithACommaOrAQuote() {
    assertThat(OutcomeCsv.field("plain")).isEqualTo("plain");
    assertThat(OutcomeCsv.field("no final chunk, 30000 ms")).isEqualTo("\"no final chunk, 30000 ms\"");
    assertThat(OutcomeCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
  }
}
