package io.jolt.stream.processor;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the RocksDB memory of a whole instance: every store shares one block cache (which also
 * holds index and filter blocks) and one write-buffer manager charged to that cache, sized by
 * {@code jolt.rocksdb.cache.bytes} and {@code jolt.rocksdb.write.buffer.bytes}. Without this each
 * store of each task would allocate its own memtables and cache.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {
    /** The two settings it reads from the Streams configuration (the service's defaults apply). */
    public static final String CACHE_BYTES = "jolt.rocksdb.cache.bytes";
    public static final String WRITE_BUFFER_BYTES = "jolt.rocksdb.write.buffer.bytes";
    private static Cache cache;
    private static WriteBufferManager writeBufferManager;

    private static synchronized void initialise(Map<String, Object> configs) {
        if (cache == null) {
            long cacheBytes = Long.parseLong(String.valueOf(configs.getOrDefault(CACHE_BYTES, 64L << 20)));
            long writeBufferBytes = Long.parseLong(String.valueOf(configs.getOrDefault(WRITE_BUFFER_BYTES, 32L << 20)));
            cache = new LRUCache(cacheBytes, -1, false, 0.1);
            writeBufferManager = new WriteBufferManager(writeBufferBytes, cache);
        }
    }

    /**
     * The instance's RocksDB memory now: the shared cache's usage (blocks, index and filter
     * blocks, and the memtables charged to it) and its pinned part; zero before any store opened.
     */
    public static synchronized Usage usage() {
        return cache == null ? new Usage(0, 0) : new Usage(cache.getUsage(), cache.getPinnedUsage());
    }

    public record Usage(long cacheBytes, long pinnedBytes) {}

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        initialise(configs);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(writeBufferManager);
        options.setTableFormatConfig(table);
        options.setMaxWriteBufferNumber(2);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and the manager are shared by every store of the instance: never closed per store.
    }
}
