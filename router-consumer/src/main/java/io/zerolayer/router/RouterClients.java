package io.zerolayer.router;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.producer.ProducerConfig;

/** How a router's consumer and transactional producer are set up. */
final class RouterClients {

  private RouterClients() {
  }

  static Map<String, Object> consumerProps(final ClusterSettings cluster, final String routerId,
      final RouterConfig config) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
    // A static member: a router restarted under its id (a crash, a redeploy) takes back its own
    // partitions at once, without a rebalance that waits out the dead member's session and stops
    // every other router's polls meanwhile. A router closed on purpose leaves the group (see close).
    props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, routerId);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
    // The same partition numbers of requests, stalls and sequence holds go to one router: a
    // request is checked against the holds of its own partition.
    props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
    // A router that dies hands its partitions to the others after this, not after the 45 s default.
    props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, config.sessionTimeoutMs());
    return props;
  }

  static Map<String, Object> producerProps(final ClusterSettings cluster, final String routerId,
      final RouterConfig config) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    // The transaction of a router that died is aborted after this; until then the router that
    // takes over its partitions waits to read their committed offsets.
    props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, config.transactionTimeoutMs());
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "zerolayer-" + routerId);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
    return props;
  }
}
