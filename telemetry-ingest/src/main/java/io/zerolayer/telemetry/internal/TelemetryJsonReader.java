package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.telemetry.TelemetryFields;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Reads a telemetry sample from a JSON object whose members are the record's fields, named as
 * in the schema (camelCase). Every field is required but the optional ones (those with a default
 * in the schema: the instance class, what each running request may still generate, the batch the
 * engine runs), and no other member is allowed.
 */
public final class TelemetryJsonReader {

  /**
   * @param telemetry the sample; fields that were missing or mistyped hold neutral values, so
   *     it is only meaningful when {@code problems} is empty
   * @param problems what is missing, unknown or of the wrong JSON type
   */
  public record Result(InstanceTelemetry telemetry, List<String> problems) {

    public Result {
      requireNonNull(telemetry, "telemetry");
      problems = List.copyOf(problems);
    }
  }

  private TelemetryJsonReader() {
  }

  public static Result read(final JsonNode body, final long nowMs) {
    // Neutral values that pass validation stand in for bad fields, so that the validator's
    // findings on the good fields can be reported in the same answer.
    final InstanceTelemetry sample = TelemetryFields.neutral("-", "-", "-", nowMs).build();
    if (body == null || !body.isObject()) {
      return new Result(sample, List.of("body must be a JSON object"));
    }
    final List<String> problems = new ArrayList<>();
    for (final Schema.Field field : InstanceTelemetry.getClassSchema().getFields()) {
      final JsonNode node = body.get(field.name());
      if (field.hasDefaultValue() && (node == null || node.isNull())) {
        // An optional field: absent or null keeps its default.
        continue;
      }
      if (field.schema().getType() == Schema.Type.UNION) {
        // The optional string (the instance class).
        if (node.isTextual()) {
          sample.put(field.pos(), node.textValue());
        } else {
          problems.add(field.name() + " must be a string or null, not " + node);
        }
        continue;
      }
      if (field.schema().getType() == Schema.Type.ARRAY) {
        // The optional list of whole numbers (tokens to each running request's limit).
        readWholeNumbers(field, node, sample, problems);
        continue;
      }
      final String problem = problem(field, node);
      if (problem == null) {
        sample.put(field.pos(), value(field, node));
      } else {
        problems.add(problem);
      }
    }
    for (final Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      final String name = names.next();
      if (InstanceTelemetry.getClassSchema().getField(name) == null) {
        problems.add(name + " is not a telemetry field");
      }
    }
    return new Result(sample, problems);
  }

  private static void readWholeNumbers(final Schema.Field field, final JsonNode node, final InstanceTelemetry sample,
      final List<String> problems) {
    final List<Integer> values = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(item -> values.add(item.isIntegralNumber() && item.canConvertToInt() ? item.intValue() : null));
    }
    if (!node.isArray() || values.contains(null)) {
      problems.add(field.name() + " must be an array of whole numbers in 32-bit range, not " + node);
      return;
    }
    sample.put(field.pos(), values);
  }

  private static String problem(final Schema.Field field, final JsonNode node) {
    if (node == null) {
      return field.name() + " is missing";
    }
    final boolean fits = switch (field.schema().getType()) {
      case STRING -> node.isTextual();
      case LONG -> node.isIntegralNumber() && node.canConvertToLong();
      case INT -> node.isIntegralNumber() && node.canConvertToInt();
      case DOUBLE -> node.isNumber();
      default -> throw new IllegalStateException("no JSON reading for " + field.schema().getType());
    };
    return fits ? null : field.name() + " must be " + expected(field.schema().getType()) + ", not " + node;
  }

  private static String expected(final Schema.Type type) {
    return switch (type) {
      case STRING -> "a string";
      case LONG -> "a whole number";
      case INT -> "a whole number in 32-bit range";
      default -> "a number";
    };
  }

  private static Object value(final Schema.Field field, final JsonNode node) {
    return switch (field.schema().getType()) {
      case STRING -> node.textValue();
      case LONG -> node.longValue();
      case INT -> node.intValue();
      default -> node.doubleValue();
    };
  }
}
