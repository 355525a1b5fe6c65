package io.zerolayer.it;

import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.FleetApp;
import io.zerolayer.fleet.FleetConfig;
import io.zerolayer.gateway.GatewayApp;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.router.RouterApp;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.runtime.StreamsMembership;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantSignature;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestTenants;
import io.zerolayer.tokenbuffer.TokenBufferApp;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The apps the crash tests run in processes of their own, on a rig's topics, to kill with {@code kill -9}. */
final class ChildProcesses {

  private ChildProcesses() {
  }

  /** One simulated instance, {@code proc-0} in zone-a. */
  static ChildApp fleet(final PipelineRig rig) throws Exception {
    return ChildApp.start(FleetApp.class, rig.settings(), rig.stateDir().resolve("fleet-process.log"),
        FleetConfig.HTTP_PORT, Map.of(FleetConfig.INSTANCES, 1, FleetConfig.ZONES, "zone-a",
            FleetConfig.ID_PREFIX, "proc-"));
  }

  /**
   * token-buffer with its stores in {@code <state dir>/token-buffer}, so that a restart finds them,
   * and one static member id, so that a restart takes back its tasks at once; its topics as
   * durable as the rig's cluster allows.
   */
  static ChildApp tokenBuffer(final PipelineRig rig) throws Exception {
    final Map<String, Object> settings = new HashMap<>(rig.durability().settings(TokenBufferConfig.PREFIX));
    settings.putAll(Map.of(TokenBufferConfig.APPLICATION_ID, PipelineNames.tokenBufferApplicationId(rig.catalogue()),
        TokenBufferConfig.STATE_DIR, rig.stateDir().resolve("token-buffer").toString(),
        TokenBufferConfig.QUERY_TOKEN, TenantSignature.newSecret(),
        TokenBufferConfig.PREFIX + StreamsMembership.INSTANCE_ID, "token-buffer-0"));
    return ChildApp.start(TokenBufferApp.class, rig.settings(), rig.stateDir().resolve("token-buffer.log"),
        TokenBufferConfig.HTTP_PORT, settings);
  }

  /**
   * An HTTP gateway in front of the rig's pipeline, replica {@code index} of {@code replicas}, for
   * the tenants of {@code tenantIds} (unlimited).
   */
  static ChildApp gateway(final PipelineRig rig, final int index, final int replicas, final String... tenantIds)
      throws Exception {
    final Path tenants = rig.stateDir().resolve("gateway-tenants.json");
    Files.writeString(tenants, "{\"tenants\": [" + String.join(", ", Arrays.stream(tenantIds)
        .map(id -> """
            {"id": "%s", "apiKeySha256": "%s", "requestsPerSecond": 100000, "tokensPerSecond": 100000000,
             "burstSeconds": 10}""".formatted(id, Tenant.hashKey(TestTenants.key(id)))).toList()) + "]}");
    return ChildApp.start(GatewayApp.class, rig.settings(), rig.stateDir().resolve("gateway-process.log"),
        GatewayConfig.HTTP_PORT, Map.of(GatewayConfig.TENANTS_FILE, tenants.toString(),
            GatewayConfig.SIGNING_SECRET, rig.signingSecret(),
            GatewayConfig.SEQUENCE_QUERY_URL, rig.pipeline().tokenBufferUrl(),
            GatewayConfig.SEQUENCE_QUERY_TOKEN, rig.pipeline().sequenceQueryToken(), GatewayConfig.REPLICAS, replicas,
            GatewayConfig.REPLICA_INDEX, index));
  }

  /** A router named {@code crash-router} in the rig's router group, serving these tenants without limits. */
  static ChildApp router(final PipelineRig rig, final String... tenantIds) throws Exception {
    final String entries = Arrays.stream(tenantIds).map(id -> """
        {"id": "%s", "apiKeySha256": "%s", "requestsPerSecond": 100000, "tokensPerSecond": 100000000,
         "burstSeconds": 10}""".formatted(id, Tenant.hashKey(TestTenants.key(id)))).collect(Collectors.joining(","));
    final Path tenants = Files.writeString(rig.stateDir().resolve("tenants.json"),
        "{\"tenants\": [" + entries + "]}");
    return ChildApp.start(RouterApp.class, rig.settings(), rig.stateDir().resolve("crash-router.log"),
        RouterConfig.HTTP_PORT, Map.of(RouterConfig.ROUTER_ID, "crash-router",
            RouterConfig.GROUP_ID, PipelineNames.routerGroup(rig.catalogue()), RouterConfig.TENANTS_FILE,
            tenants.toString()));
  }
}
