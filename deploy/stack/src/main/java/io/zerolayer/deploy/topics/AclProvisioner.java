package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * Makes a cluster hold ACL bindings: creates those it lacks and leaves every other binding as it
 * is (it never deletes). Running it again changes nothing.
 */
public final class AclProvisioner {

  private final Admin admin;
  private final Duration timeout;

  public AclProvisioner(final Admin admin) {
    this(admin, TopicProvisioner.DEFAULT_TIMEOUT);
  }

  public AclProvisioner(final Admin admin, final Duration timeout) {
    this.admin = requireNonNull(admin, "admin");
    this.timeout = requireNonNull(timeout, "timeout");
  }

  /**
   * Creates the bindings the cluster lacks.
   *
   * @return the bindings it created
   * @throws ProvisioningException if the cluster refuses (no authorizer, or the caller may not alter ACLs)
   */
  public List<AclBinding> provision(final List<AclBinding> wanted) {
    final Set<AclBinding> existing = new HashSet<>(AdminCalls.await(admin.describeAcls(AclBindingFilter.ANY).values(),
        timeout, "list the cluster's ACLs"));
    final List<AclBinding> missing = wanted.stream().distinct().filter(binding -> !existing.contains(binding)).toList();
    if (!missing.isEmpty()) {
      AdminCalls.await(admin.createAcls(missing).all(), timeout, "create " + missing.size() + " ACLs");
    }
    return missing;
  }
}
