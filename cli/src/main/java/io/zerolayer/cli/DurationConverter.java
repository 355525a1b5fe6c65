package io.zerolayer.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a duration as people write it on a command line: {@code 500ms}, {@code 30s}, {@code 2m}, or ISO-8601. */
final class DurationConverter implements ITypeConverter<Duration> {

  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

  @Override
  public Duration convert(final String value) {
    final String text = value.strip().toLowerCase(Locale.ROOT);
    final Matcher matcher = SHORT.matcher(text);
    if (matcher.matches()) {
      final long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      };
    }
    try {
      return Duration.parse(text.toUpperCase(Locale.ROOT));
    } catch (final RuntimeException e) {
      throw new TypeConversionException("'" + value + "' is not a duration; write it as 500ms, 30s, 2m, 1h or PT30S");
    }
  }
}
