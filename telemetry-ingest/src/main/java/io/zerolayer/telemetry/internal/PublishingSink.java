package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.telemetry.TelemetryPublisher;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Hands the samples of one source to the publisher and counts what becomes of them. A sample the
 * publisher refuses, or cannot even send, is counted and the exception goes on to the caller: the
 * push endpoint answers an error, and the scraper reports a round without a sample.
 */
public final class PublishingSink implements Consumer<InstanceTelemetry> {

  private final TelemetryPublisher publisher;
  private final IngestMeters meters;
  private final IngestMeters.Source source;

  public PublishingSink(final TelemetryPublisher publisher, final IngestMeters meters,
      final IngestMeters.Source source) {
    this.publisher = requireNonNull(publisher, "publisher");
    this.meters = requireNonNull(meters, "meters");
    this.source = requireNonNull(source, "source");
  }

  @Override
  public void accept(final InstanceTelemetry sample) {
    final CompletableFuture<Void> sent;
    try {
      sent = publisher.send(sample);
    } catch (final IllegalArgumentException e) {
      meters.rejected(source);
      throw e;
    } catch (final RuntimeException e) {
      meters.unsent(source);
      throw e;
    }
    sent.whenComplete((ignored, error) -> {
      if (error == null) {
        meters.published(source);
      } else {
        meters.unsent(source);
      }
    });
  }
}
