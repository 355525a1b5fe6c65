package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.prefix.PrefixBlocks;
import io.zerolayer.router.policy.PrefixMatch;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this router knows each instance's prefix cache holds: the blocks the instance reported
 * stored and not yet evicted ({@link KvCacheEvent}s), and the blocks of every prompt this router
 * sent there, which the instance will hold once it has prefilled them (and which stand in for
 * events where an engine publishes none). At most {@code maxBlocksPerInstance} per instance, the
 * least recently seen dropped first. The index starts empty and learns from the events that come
 * after it started. Thread-safe: the events' reader writes, the router's threads read and write.
 */
public final class PrefixIndex {

  private final int maxBlocksPerInstance;
  private final Map<String, Blocks> byInstance = new ConcurrentHashMap<>();

  public PrefixIndex(final int maxBlocksPerInstance) {
    if (maxBlocksPerInstance < 1) {
      throw new IllegalArgumentException("maxBlocksPerInstance must be at least 1, was " + maxBlocksPerInstance);
    }
    this.maxBlocksPerInstance = maxBlocksPerInstance;
  }

  /** Applies one instance's report; an event of a kind this version does not know is ignored. */
  public void apply(final KvCacheEvent event) {
    final Blocks blocks = blocks(event.getInstanceId());
    switch (event.getKind()) {
      case STORED -> event.getBlockHashes().forEach(blocks::add);
      case EVICTED -> event.getBlockHashes().forEach(blocks::remove);
      case CLEARED -> blocks.clear();
      default -> {
        // A kind a newer engine reports; what it means is not known here.
      }
    }
  }

  /** This router sent a prompt with these blocks to the instance. */
  public void routed(final String instanceId, final long[] promptBlocks) {
    final Blocks blocks = blocks(instanceId);
    for (final long block : promptBlocks) {
      blocks.add(block);
    }
  }

  /** How much of a prompt each instance holds, worked out per instance when asked. */
  public PrefixMatch match(final long[] promptBlocks, final int promptChars, final int promptTokens) {
    return new PrefixMatch() {
      @Override
      public int blocks() {
        return promptBlocks.length;
      }

      @Override
      public int heldBlocks(final String instanceId) {
        final Blocks blocks = byInstance.get(instanceId);
        return blocks == null ? 0 : blocks.leading(promptBlocks);
      }

      @Override
      public int cachedTokens(final String instanceId) {
        return PrefixBlocks.cachedTokens(heldBlocks(instanceId), promptChars, promptTokens);
      }
    };
  }

  /** Blocks the index holds for the instance. */
  int size(final String instanceId) {
    final Blocks blocks = byInstance.get(instanceId);
    return blocks == null ? 0 : blocks.size();
  }

  private Blocks blocks(final String instanceId) {
    return byInstance.computeIfAbsent(instanceId, id -> new Blocks(maxBlocksPerInstance));
  }

  /** One instance's blocks, least recently seen first. */
  private static final class Blocks {
    private final int max;
    private final LinkedHashMap<Long, Boolean> held = new LinkedHashMap<>(64, 0.75f, true);

    Blocks(final int max) {
      this.max = max;
    }

    synchronized void add(final long block) {
      held.put(block, Boolean.TRUE);
      if (held.size() > max) {
        held.remove(held.keySet().iterator().next());
      }
    }

    synchronized void remove(final long block) {
      held.remove(block);
    }

    synchronized void clear() {
      held.clear();
    }

    synchronized int leading(final long[] prompt) {
      int n = 0;
      while (n < prompt.length && held.containsKey(prompt[n])) {
        n++;
      }
      return n;
    }

    synchronized int size() {
      return held.size();
    }
  }
}
