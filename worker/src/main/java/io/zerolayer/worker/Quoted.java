package io.zerolayer.worker;

/** The start of an HTTP answer, on one line, for an error message. */
public final class Quoted {

  /** How much of an answer a message quotes. */
  public static final int CHARS = 300;

  private Quoted() {
  }

  /** The start of a body, on one line. */
  public static String start(final String body) {
    final String line = body.replaceAll("\\s+", " ").strip();
    return line.length() <= CHARS ? line : line.substring(0, CHARS) + "...";
  }
}
