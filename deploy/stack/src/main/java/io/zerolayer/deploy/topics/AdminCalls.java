package io.zerolayer.deploy.topics;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.SecurityDisabledException;

/** Waits for admin results and turns their failures into errors that say what to check. */
final class AdminCalls {

  private AdminCalls() {
  }

  /**
   * @param what what was being done, as in "Cannot {what}"
   */
  static <T> T await(final KafkaFuture<T> future, final Duration timeout, final String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final ExecutionException e) {
      throw failure(what, e.getCause());
    } catch (final TimeoutException e) {
      throw new ProvisioningException("Cannot " + what + ": no answer within " + timeout.toSeconds()
          + " s; check that the cluster is reachable at the bootstrap servers and that its security settings "
          + "match the client's", e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProvisioningException("Interrupted while trying to " + what, e);
    }
  }

  static ProvisioningException failure(final String what, final Throwable cause) {
    return new ProvisioningException("Cannot " + what + ": " + cause.getMessage() + hint(cause), cause);
  }

  private static String hint(final Throwable cause) {
    if (cause instanceof AuthorizationException) {
      return " (grant the client's principal CREATE, DESCRIBE and DESCRIBE_CONFIGS on the topics, or on their "
          + "prefix)";
    }
    if (cause instanceof SecurityDisabledException) {
      return " (the cluster has no authorizer: set authorizer.class.name on the brokers, or provision no ACLs)";
    }
    if (cause instanceof InvalidReplicationFactorException) {
      return " (the cluster has fewer brokers than the profile's replication factor; use the local profile for "
          + "a single broker)";
    }
    return "";
  }
}
