package io.zerolayer.gateway;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.tenant.TenantDirectory;

/**
 * The HTTP gateway as its own process. Cluster settings come from
 * {@link ClusterSettings#fromEnvironment}, the rest from {@link GatewayConfig#fromEnvironment}.
 */
public final class GatewayApp {

  private GatewayApp() {
  }

  public static void main(final String[] args) throws InterruptedException {
    final ClusterSettings cluster = ClusterSettings.fromEnvironment(System.getenv());
    final GatewayConfig config = GatewayConfig.fromEnvironment(System.getenv());
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    final Gateway gateway = Gateway.start(config, TenantDirectory.fromFile(config.tenantsFile()), cluster, serdes);
    System.out.println("Gateway serves " + gateway.baseUrl());
    ShutdownSignal.awaitThenClose("gateway", gateway, serdes);
  }
}
