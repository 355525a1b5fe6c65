package io.zerolayer.router;

/** Names of the router's meters that tools outside the router read (the dispatch benchmark). */
public final class RouterMeterNames {

  /** Routing one poll's records inside the open transaction. */
  public static final String TRANSACTION_ROUTE = "zerolayer.router.transaction.route";
  /** Committing a transaction: its last records, its offsets and the commit. */
  public static final String TRANSACTION_COMMIT = "zerolayer.router.transaction.commit";

  private RouterMeterNames() {
  }
}
