package io.jolt.stream.bench;

import io.jolt.stream.processor.BoundedRocksDbMemory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One reading of the soak, every few seconds: the heap's live set (what the heap pools held
 * after their latest collection, the figure that grows when something leaks), the process's
 * resident memory (heap, RocksDB's native memory and everything else), RocksDB's shared cache
 * with the memtables charged to it (and the part of it pinned: in use, not evictable), the stores on
 * disk, and the input records sent but not yet committed (lag).
 */
public record SoakSample(double minutes, long heapAfterGcBytes, long residentBytes, long rocksDbBytes, long rocksDbPinnedBytes, long stateBytes,
                  long lag, long processed) {
    public static SoakSample now(double minutes, long sent, long processed, Path stateDir) {
        BoundedRocksDbMemory.Usage rocksDb = BoundedRocksDbMemory.usage();
        return new SoakSample(minutes, heapAfterGc(), resident(), rocksDb.cacheBytes(), rocksDb.pinnedBytes(), onDisk(stateDir), sent - processed,
                processed);
    }

    /** The state dir's bytes: the stores grow with the identities, and RocksDB's index and filter blocks with them. */
    private static long onDisk(Path dir) {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0; // a file removed while walking (a compaction): the next sample counts again
        }
    }

    private static long heapAfterGc() {
        long bytes = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            bytes += afterGc == null ? 0 : afterGc.getUsed();
        }
        return bytes;
    }

    /** VmRSS from /proc (Linux); 0 where there is none. */
    private static long resident() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
