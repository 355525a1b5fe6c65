package io.zerolayer.fleet.load;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes prompt text of an exact token count, as the router counts prompts: with the
 * {@code cl100k_base} BPE (jtokkit). The text is an instruction followed by sentences of
 * common words, a pure function of (tokens, seed). Safe to share between threads.
 */
public final class PromptWriter {

  private static final List<String> INSTRUCTIONS = List.of(
      "Summarise the notes below for an engineer who is on call tonight.",
      "Read the report below and list the risks it mentions.",
      "Answer the question at the end using only the context below.",
      "Rewrite the following text in plain words for a customer.");

  /** Each is one token with its leading space, so a word added is a token added. */
  private static final List<String> WORDS = List.of(
      " the", " service", " request", " team", " data", " time", " system", " user", " model", " server",
      " report", " change", " error", " network", " memory", " cache", " queue", " week", " day", " plan",
      " customer", " problem", " question", " answer", " result", " value", " number", " order", " state",
      " has", " was", " will", " can", " should", " would", " after", " before", " during", " with", " from",
      " new", " old", " high", " low", " first", " last", " next", " small", " large", " every", " other");

  private static final int WORDS_PER_SENTENCE = 12;
  private static final int MAX_ADJUSTMENTS = 64;

  private final Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  /** The text's {@code cl100k_base} token count. */
  public int count(final String text) {
    return encoding.countTokens(text);
  }

  /** Text of exactly {@code tokens} tokens. */
  public String write(final int tokens, final long seed) {
    if (tokens < 1) {
      throw new IllegalArgumentException("A prompt needs at least 1 token, got " + tokens);
    }
    final SplittableRandom random = new SplittableRandom(seed);
    final String instruction = INSTRUCTIONS.get(random.nextInt(INSTRUCTIONS.size()));
    final StringBuilder text = new StringBuilder();
    final int instructionTokens = count(instruction);
    int estimate = 0;
    if (instructionTokens < tokens) {
      text.append(instruction);
      estimate = instructionTokens;
    }
    for (int words = 1; estimate < tokens; words++) {
      text.append(word(random));
      estimate++;
      if (words % WORDS_PER_SENTENCE == 0 && estimate < tokens) {
        text.append('.');
        estimate++;
      }
    }
    return adjust(text, tokens, random);
  }

  /** Adds or drops trailing words until the count is exact, should merges have shifted it. */
  private String adjust(final StringBuilder text, final int tokens, final SplittableRandom random) {
    int actual = count(text.toString());
    for (int i = 0; actual != tokens && i < MAX_ADJUSTMENTS; i++) {
      if (actual < tokens) {
        text.append(word(random));
      } else {
        text.setLength(Math.max(0, text.lastIndexOf(" ")));
      }
      actual = count(text.toString());
    }
    if (actual != tokens) {
      throw new IllegalStateException("Could not write a prompt of " + tokens + " tokens; got " + actual);
    }
    return text.toString();
  }

  private static String word(final SplittableRandom random) {
    return WORDS.get(random.nextInt(WORDS.size()));
  }
}
