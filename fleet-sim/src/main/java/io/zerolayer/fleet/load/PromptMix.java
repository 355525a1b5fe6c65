package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The benchmark's synthetic workload: prompts drawn from size bands by weight (the standard
 * mix is 70 % short, 25 % medium, 5 % long), a prompt length drawn uniformly within its band
 * and an output limit drawn log-uniformly, so most answers are short with a long tail. Each
 * request is a pure function of (seed, index).
 */
public final class PromptMix implements RequestSource {

  /**
   * One band of the mix.
   *
   * @param band the size class
   * @param weight its share of the requests (weights are normalised over the mix)
   * @param promptTokens prompt lengths drawn from, all inside the band
   * @param outputTokens output limits drawn from
   */
  public record Share(PromptBand band, double weight, TokenRange promptTokens, TokenRange outputTokens) {

    public Share {
      requireNonNull(band, "band");
      requireNonNull(promptTokens, "promptTokens");
      requireNonNull(outputTokens, "outputTokens");
      if (!(weight > 0)) {
        throw new IllegalArgumentException("The weight of " + band + " must be positive, got " + weight);
      }
      if (!band.covers(promptTokens)) {
        throw new IllegalArgumentException("Prompt lengths " + promptTokens + " are not all " + band);
      }
    }
  }

  private final List<Share> shares;
  private final double totalWeight;
  private final long seed;
  private final PromptWriter writer;

  public PromptMix(final List<Share> shares, final long seed, final PromptWriter writer) {
    if (shares.isEmpty()) {
      throw new IllegalArgumentException("A prompt mix needs at least one share");
    }
    this.shares = List.copyOf(shares);
    this.totalWeight = this.shares.stream().mapToDouble(Share::weight).sum();
    this.seed = seed;
    this.writer = requireNonNull(writer, "writer");
  }

  /** The benchmark's mix: 70 % short, 25 % medium, 5 % long (over 1500 tokens, up to 3000). */
  public static PromptMix standard(final long seed) {
    return new PromptMix(standardShares(), seed, new PromptWriter());
  }

  /** The shares of {@link #standard(long)}. */
  public static List<Share> standardShares() {
    return List.of(
        new Share(PromptBand.SHORT, 0.70, new TokenRange(20, 199), new TokenRange(16, 256)),
        new Share(PromptBand.MEDIUM, 0.25, new TokenRange(200, 1000), new TokenRange(32, 384)),
        new Share(PromptBand.LONG, 0.05, new TokenRange(1501, 3000), new TokenRange(64, 512)));
  }

  @Override
  public RequestSpec spec(final long index) {
    final SplittableRandom random = new SplittableRandom(Seeds.of(seed, index));
    final Share share = share(random);
    final int promptTokens = share.promptTokens().uniform(random);
    final int maxOutputTokens = share.outputTokens().logUniform(random);
    final long requestSeed = random.nextLong();
    return new RequestSpec(share.band(), writer.write(promptTokens, requestSeed), promptTokens, maxOutputTokens,
        requestSeed);
  }

  @Override
  public String describe() {
    return "Synthetic prompt mix (seed " + seed + "): " + shares.stream()
        .map(s -> String.format("%.0f %% %s prompts of %s tokens, output up to %s", 100 * s.weight() / totalWeight,
            s.band().name().toLowerCase(), s.promptTokens(), s.outputTokens()))
        .collect(Collectors.joining("; "));
  }

  private Share share(final SplittableRandom random) {
    double draw = random.nextDouble() * totalWeight;
    for (final Share share : shares) {
      draw -= share.weight();
      if (draw < 0) {
        return share;
      }
    }
    return shares.get(shares.size() - 1);
  }
}
