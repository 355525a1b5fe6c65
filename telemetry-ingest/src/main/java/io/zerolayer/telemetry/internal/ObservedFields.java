package io.zerolayer.telemetry.internal;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/** Sets the fields a scrape observed and remembers them; the rest keep their neutral value. */
final class ObservedFields {

  private static final Set<String> IDENTITY = Set.of("instanceId", "zone", "model", "sampleTimeMs", "instanceClass");
  private static final Set<String> METRICS = InstanceTelemetry.getClassSchema().getFields().stream()
      .map(Schema.Field::name).filter(name -> !IDENTITY.contains(name)).collect(Collectors.toUnmodifiableSet());

  private final Set<String> observed = new TreeSet<>();

  void value(final String field, final OptionalDouble value, final DoubleConsumer setter) {
    if (value.isPresent() && !Double.isNaN(value.getAsDouble())) {
      setter.accept(value.getAsDouble());
      observed.add(field);
    }
  }

  /** A gauge the server reports as a float, such as a queue length. */
  void count(final String field, final OptionalDouble value, final IntConsumer setter) {
    if (value.isPresent() && !Double.isNaN(value.getAsDouble())) {
      setter.accept((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Math.round(value.getAsDouble()))));
      observed.add(field);
    }
  }

  void bytes(final String field, final OptionalLong value, final LongConsumer setter) {
    if (value.isPresent()) {
      setter.accept(value.getAsLong());
      observed.add(field);
    }
  }

  void list(final String field, final Optional<List<Integer>> value, final Consumer<List<Integer>> setter) {
    if (value.isPresent()) {
      setter.accept(value.get());
      observed.add(field);
    }
  }

  /** The metric fields not observed, in name order. */
  Set<String> neutral() {
    return METRICS.stream().filter(field -> !observed.contains(field)).collect(Collectors.toCollection(TreeSet::new));
  }
}
