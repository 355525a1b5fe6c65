package io.zerolayer.router;

/** Names of the router's meters that tools outside the router read (the dispatch benchmark). */
public final class RouterMeterNames {

  /** Routing one poll's records inside a transaction, from its start to its commit. */
  public static final String TRANSACTION_ROUTE = "zerolayer.router.transaction.route";
  /** Committing a transaction (offsets, decisions, dispatches). */
  public static final String TRANSACTION_COMMIT = "zerolayer.router.transaction.commit";

  private RouterMeterNames() {
  }
}
