package io.zerolayer.fleet;

import io.zerolayer.runtime.EnvironmentConfig;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Settings of a simulated fleet run as its own process; each key can also come from its
 * {@code ZEROLAYER_...} variable.
 */
public final class FleetConfig extends AbstractConfig {

  public static final String INSTANCES = "fleet.instances";
  public static final String ZONES = "fleet.zones";
  public static final String ID_PREFIX = "fleet.id.prefix";
  public static final String HTTP_HOST = "fleet.http.host";
  public static final String HTTP_PORT = "fleet.http.port";
  public static final String FAULTS = "fleet.faults";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(INSTANCES, Type.INT, 4, Range.atLeast(1), Importance.HIGH, "How many simulated instances to run.")
      .define(ZONES, Type.LIST, List.of("zone-a", "zone-b"), ConfigDef.LambdaValidator.with(
          (name, value) -> {
            if (((List<?>) value).isEmpty()) {
              throw new ConfigException(name, value, "name at least one zone");
            }
          }, () -> "a non-empty list"), Importance.HIGH,
          "Zones the instances are spread over, in turn (comma-separated).")
      .define(ID_PREFIX, Type.STRING, "gpu-", Importance.MEDIUM,
          "Instance ids are this prefix and a number from 0.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8085, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.")
      .define(FAULTS, Type.STRING, "", Importance.MEDIUM,
          "Faults to inject, timed from the fleet's start, e.g. oom@20s:gpu-3, zone-loss@40s:zone-b; "
              + "--faults on the command line takes precedence.");

  public FleetConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_FLEET_...} variables, defaults elsewhere. */
  public static FleetConfig fromEnvironment(final Map<String, String> env) {
    return new FleetConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public int instances() {
    return getInt(INSTANCES);
  }

  public List<String> zones() {
    return getList(ZONES);
  }

  public String idPrefix() {
    return getString(ID_PREFIX);
  }

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  public String faults() {
    return getString(FAULTS);
  }
}
