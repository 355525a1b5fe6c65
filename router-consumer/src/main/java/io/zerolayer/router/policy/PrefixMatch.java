package io.zerolayer.router.policy;

/**
 * How much of a request's prompt each instance's prefix cache holds, as far as the router knows:
 * leading blocks of the prompt ({@link io.zerolayer.contract.prefix.PrefixBlocks}) and the prompt
 * tokens they cover.
 */
public interface PrefixMatch {

  /** Knows of no cache: every instance holds nothing of the prompt. */
  PrefixMatch NONE = new PrefixMatch() {
    @Override
    public int blocks() {
      return 0;
    }

    @Override
    public int heldBlocks(final String instanceId) {
      return 0;
    }

    @Override
    public int cachedTokens(final String instanceId) {
      return 0;
    }
  };

  /** The prompt's whole blocks. */
  int blocks();

  /** The prompt's leading blocks the instance holds. */
  int heldBlocks(String instanceId);

  /** The prompt tokens those blocks cover. */
  int cachedTokens(String instanceId);
}
