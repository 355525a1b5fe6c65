package io.zerolayer.testing.archfixture.alpha.internal;

/** A class of module alpha's internal package, for ArchitectureRulesTest. */
public final class Hidden {

  public static int answer() {
    return 42;
  }
}
