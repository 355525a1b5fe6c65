package io.zerolayer.deploy.topics;

import java.util.List;

/**
 * What a provisioning run found and did.
 *
 * @param created names of the topics it created
 * @param unchanged names of the existing topics that match the catalogue
 * @param drift findings about existing topics that differ from the catalogue; never corrected
 */
public record ProvisioningReport(List<String> created, List<String> unchanged, List<String> drift) {

  public ProvisioningReport {
    created = List.copyOf(created);
    unchanged = List.copyOf(unchanged);
    drift = List.copyOf(drift);
  }

  public boolean hasDrift() {
    return !drift.isEmpty();
  }

  /** One line for the console, such as "created 13 topics, 0 unchanged, 0 drift findings". */
  public String summary() {
    return "created " + created.size() + " topics, " + unchanged.size() + " unchanged, " + drift.size()
        + " drift findings";
  }
}
