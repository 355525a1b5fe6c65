package io.zerolayer.fleet.fault;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * When to inject which fault into which instance or zone, relative to a start time.
 *
 * <p>Grammar, whitespace around entries ignored:
 * <pre>
 * schedule := "" | entry ("," entry)*
 * entry    := kind "@" offset ":" target
 * kind     := oom | recover | cold | stall | resume | crash     (target: an instance id)
 *           | zone-loss | zone-restore                         (target: a zone)
 * offset   := number unit        number: digits, optionally with a fraction ("2.5")
 * unit     := ms | s | m
 * target   := one or more characters other than whitespace and ","
 * </pre>
 * For example {@code oom@20s:gpu-3, zone-loss@40s:zone-b, recover@60s:gpu-3, cold@70s:gpu-5,
 * stall@80s:gpu-1, crash@90s:gpu-2}. Entries are kept in time order; entries at the same time in
 * the order written. Whether a target exists is the {@link FaultInjector}'s to check.
 */
public final class FaultSchedule {

  /** The form of an entry, for error messages. */
  public static final String ENTRY_FORM = "<kind>@<offset>:<target>, e.g. oom@20s:gpu-3 or zone-loss@1.5m:zone-b";
  private static final Pattern ENTRY = Pattern.compile("([a-z-]+)@(\\d+(?:\\.\\d+)?)(ms|s|m):([^\\s,]+)");

  private final List<ScheduledFault> entries;

  private FaultSchedule(final List<ScheduledFault> entries) {
    this.entries = entries.stream().sorted(Comparator.comparing(ScheduledFault::at)).toList();
  }

  /** A schedule without faults. */
  public static FaultSchedule none() {
    return new FaultSchedule(List.of());
  }

  /** A schedule of these entries. */
  public static FaultSchedule of(final List<ScheduledFault> entries) {
    return new FaultSchedule(List.copyOf(requireNonNull(entries, "entries")));
  }

  /**
   * Reads a schedule; a blank text is a schedule without faults.
   *
   * @throws IllegalArgumentException naming the first entry that does not follow the grammar
   */
  public static FaultSchedule parse(final String text) {
    requireNonNull(text, "text");
    if (text.isBlank()) {
      return none();
    }
    final String[] parts = text.split(",", -1);
    final List<ScheduledFault> entries = new ArrayList<>(parts.length);
    for (int i = 0; i < parts.length; i++) {
      entries.add(entry(parts[i].trim(), i + 1));
    }
    return new FaultSchedule(entries);
  }

  private static ScheduledFault entry(final String entry, final int position) {
    final Matcher matcher = ENTRY.matcher(entry);
    if (!matcher.matches()) {
      throw new IllegalArgumentException("Fault schedule entry " + position + " '" + entry
          + "' is not of the form " + ENTRY_FORM + "; offsets take ms, s or m");
    }
    final FaultKind kind = FaultKind.spelled(matcher.group(1)).orElseThrow(() -> new IllegalArgumentException(
        "Fault schedule entry " + position + " '" + entry + "' has an unknown kind '" + matcher.group(1)
            + "'; kinds are " + FaultKind.spellings() + " (form " + ENTRY_FORM + ")"));
    return new ScheduledFault(kind, offset(matcher.group(2), matcher.group(3)), matcher.group(4));
  }

  private static Duration offset(final String number, final String unit) {
    final long unitMs = switch (unit) {
      case "ms" -> 1;
      case "s" -> 1_000;
      default -> 60_000;
    };
    return Duration.ofMillis(new BigDecimal(number).multiply(BigDecimal.valueOf(unitMs)).longValue());
  }

  /** The entries, in time order. */
  public List<ScheduledFault> entries() {
    return entries;
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** The schedule in its grammar, so that {@code parse(toString())} gives it back. */
  @Override
  public String toString() {
    return entries.stream().map(ScheduledFault::toString).collect(Collectors.joining(", "));
  }
}
