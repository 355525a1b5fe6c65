package io.zerolayer.router.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The instance that served each session's latest request, for the session's next one: at most
 * {@code maxSessions}, the least recently used forgotten first. Keyed by tenant and session, so
 * that two tenants' keys never meet. Used by one router thread only.
 */
final class SessionAffinity {

  private final Map<String, String> instances;

  SessionAffinity(final int maxSessions) {
    if (maxSessions < 1) {
      throw new IllegalArgumentException("maxSessions must be at least 1, was " + maxSessions);
    }
    instances = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(final Map.Entry<String, String> eldest) {
        return size() > maxSessions;
      }
    };
  }

  /** The instance of the session's latest request; null for none, or no session. */
  String instance(final String tenantId, final String sessionId) {
    return sessionId == null ? null : instances.get(key(tenantId, sessionId));
  }

  /** The session's latest request went to the instance. */
  void served(final String tenantId, final String sessionId, final String instanceId) {
    if (sessionId != null) {
      instances.put(key(tenantId, sessionId), instanceId);
    }
  }

  private static String key(final String tenantId, final String sessionId) {
    return tenantId + '\u0000' + sessionId;
  }
}
