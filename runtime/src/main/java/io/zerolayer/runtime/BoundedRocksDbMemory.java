package io.zerolayer.runtime;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the off-heap memory of every RocksDB store of the process, as Kafka Streams' memory
 * management guide describes: one block cache shared by all stores, with memtables charged to
 * it through one write-buffer manager. The size comes from {@link #TOTAL_BYTES} in the app's
 * config; the first app of a process to open a store fixes it.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

  /** Total bytes of block cache and memtables of all stores, index and filter blocks included. */
  public static final String TOTAL_BYTES = "zerolayer.rocksdb.memory.bytes";
  /** Used when an app does not say. */
  public static final long DEFAULT_TOTAL_BYTES = 64L * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(BoundedRocksDbMemory.class);
  private static final double MEMTABLE_SHARE = 0.5;
  private static final double HIGH_PRIORITY_SHARE = 0.1;
  private static final long MEMTABLE_BYTES = 8L * 1024 * 1024;
  /**
   * A memtable takes memory from its arena in blocks of this size, one as soon as it is written.
   * RocksDB's default (an eighth of the memtable, 1 MiB here) would make an app of many small stores
   * (a heatmap of 6 partitions opens 36, window segments included) hold more than the whole
   * memtable budget in first blocks: the write-buffer manager would then find it over budget on
   * every write, switch a memtable each time and stop writes until its flush, which measured as
   * most of the heatmap's time. Small blocks keep an idle store's share at some 64 KiB.
   */
  private static final long ARENA_BLOCK_BYTES = 64L * 1024;

  // The one static the project allows: RocksDB stores can only share a cache and a write-buffer
  // manager through state outside the setter instances Kafka Streams creates per store.
  private static Shared shared;

  private record Shared(long totalBytes, Cache cache, WriteBufferManager writeBuffers) {
  }

  @Override
  public void setConfig(final String storeName, final Options options, final Map<String, Object> configs) {
    final Shared memory = shared(totalBytes(configs));
    final BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(memory.cache());
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setWriteBufferManager(memory.writeBuffers());
    options.setWriteBufferSize(Math.min(MEMTABLE_BYTES, memory.totalBytes() / 8));
    options.setMaxWriteBufferNumber(2);
    options.setArenaBlockSize(ARENA_BLOCK_BYTES);
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(final String storeName, final Options options) {
    // The cache and write-buffer manager outlive any one store; they are never closed.
  }

  private static synchronized Shared shared(final long totalBytes) {
    if (shared == null) {
      final Cache cache = new LRUCache(totalBytes, -1, false, HIGH_PRIORITY_SHARE);
      shared = new Shared(totalBytes, cache, new WriteBufferManager((long) (totalBytes * MEMTABLE_SHARE), cache));
      LOG.info("RocksDB memory of this process bounded to {} bytes", totalBytes);
    } else if (shared.totalBytes() != totalBytes) {
      LOG.warn("RocksDB memory is already bounded to {} bytes in this process; {} is ignored",
          shared.totalBytes(), totalBytes);
    }
    return shared;
  }

  private static long totalBytes(final Map<String, Object> configs) {
    final Object value = configs.get(TOTAL_BYTES);
    if (value == null) {
      return DEFAULT_TOTAL_BYTES;
    }
    final long bytes = Long.parseLong(value.toString());
    if (bytes < 1024 * 1024) {
      throw new IllegalArgumentException(TOTAL_BYTES + " must be at least 1 MiB, was " + bytes);
    }
    return bytes;
  }
}
