package io.zerolayer.testing.archfixture.beta;

import io.zerolayer.testing.archfixture.alpha.internal.Hidden;

/** Module beta reaching into alpha's internal package, for ArchitectureRulesTest. */
public final class UsesHidden {

  public static int answer() {
    return Hidden.answer();
  }
}
