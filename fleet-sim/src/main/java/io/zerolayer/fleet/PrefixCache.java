package io.zerolayer.fleet;

import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.avro.KvCacheEventKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

/**
 * A simulated engine's prefix cache: the KV blocks of prompt text it prefilled, named by
 * {@link io.zerolayer.contract.prefix.PrefixBlocks}, at most {@code capacity} of them, the least
 * recently used evicted first. A prompt whose leading blocks are held prefills only the rest.
 * Every change is kept as a {@link KvCacheEvent} until {@link #drainEvents} hands it to the
 * publisher, as vLLM publishes its KV-cache events. Thread-safe.
 */
final class PrefixCache {

  private final String instanceId;
  private final int capacity;
  private final LinkedHashMap<Long, Boolean> blocks = new LinkedHashMap<>(16, 0.75f, true);
  private final List<KvCacheEvent> events = new ArrayList<>();

  /** @param capacity blocks held at most; 0 holds none */
  PrefixCache(final String instanceId, final int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("A prefix cache holds 0 blocks or more, got " + capacity);
    }
    this.instanceId = instanceId;
    this.capacity = capacity;
  }

  /**
   * Looks the prompt's blocks up and stores them, as its prefill does.
   *
   * @return how many leading blocks were already held
   */
  synchronized int prefill(final long[] promptBlocks, final long nowMs) {
    int held = 0;
    while (held < promptBlocks.length && blocks.containsKey(promptBlocks[held])) {
      held++;
    }
    if (capacity == 0) {
      return 0;
    }
    final List<Long> stored = new ArrayList<>();
    for (final long block : promptBlocks) {
      if (blocks.put(block, Boolean.TRUE) == null) {
        stored.add(block);
      }
    }
    final List<Long> evicted = new ArrayList<>();
    final var oldest = blocks.entrySet().iterator();
    while (blocks.size() > capacity) {
      evicted.add(oldest.next().getKey());
      oldest.remove();
    }
    // Blocks of this very prompt evicted again at once (a prompt longer than the cache) were never held.
    final Set<Long> storedNow = new HashSet<>(stored);
    final Set<Long> evictedNow = new HashSet<>(evicted);
    stored.removeIf(evictedNow::contains);
    evicted.removeIf(storedNow::contains);
    record(KvCacheEventKind.STORED, stored, nowMs);
    record(KvCacheEventKind.EVICTED, evicted, nowMs);
    return held;
  }

  /** The engine restarted: every block is gone. */
  synchronized void clear(final long nowMs) {
    if (!blocks.isEmpty()) {
      blocks.clear();
      events.add(new KvCacheEvent(instanceId, KvCacheEventKind.CLEARED, List.of(), nowMs));
    }
  }

  /** The changes since the previous call, oldest first. */
  synchronized List<KvCacheEvent> drainEvents() {
    final List<KvCacheEvent> drained = List.copyOf(events);
    events.clear();
    return drained;
  }

  synchronized int size() {
    return blocks.size();
  }

  private void record(final KvCacheEventKind kind, final List<Long> hashes, final long nowMs) {
    if (!hashes.isEmpty()) {
      events.add(new KvCacheEvent(instanceId, kind, List.copyOf(hashes), nowMs));
    }
  }

  /** For tests: whether the block is held, without touching its recency. */
  synchronized boolean holds(final long block) {
    return blocks.containsKey(block);
  }
}
