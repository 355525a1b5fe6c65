package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Scrape;

/** Reads an inference server's page, telling vLLM from SGLang by their metric prefixes. */
public final class EngineReaders {

  private EngineReaders() {
  }

  /**
   * @throws IllegalArgumentException when the page has neither vLLM nor SGLang metrics
   */
  public static EngineReading read(final Scrape scrape) {
    if (ScrapeValues.anyStartsWith(scrape, "vllm:")) {
      return VllmReader.read(scrape);
    }
    if (ScrapeValues.anyStartsWith(scrape, "sglang:")) {
      return SglangReader.read(scrape);
    }
    throw new IllegalArgumentException("the page has neither vllm: nor sglang: metrics");
  }
}
