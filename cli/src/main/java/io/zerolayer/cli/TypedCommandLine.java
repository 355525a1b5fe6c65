package io.zerolayer.cli;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;

/** The command line as typed, quoted for a shell where needed, for a benchmark's caption. */
final class TypedCommandLine {

  private static final Pattern PLAIN_ARGUMENT = Pattern.compile("[A-Za-z0-9._:/=@%+,-]+");

  private TypedCommandLine() {
  }

  /** {@code zerolayer <subcommand> <options...>} as parsed by {@code spec}'s command line. */
  static String of(final CommandSpec spec) {
    final List<String> args = spec.commandLine().getParseResult().originalArgs();
    return "zerolayer " + args.stream().map(TypedCommandLine::quoted).collect(Collectors.joining(" "));
  }

  private static String quoted(final String argument) {
    return PLAIN_ARGUMENT.matcher(argument).matches() ? argument : "'" + argument.replace("'", "'\\''") + "'";
  }
}
