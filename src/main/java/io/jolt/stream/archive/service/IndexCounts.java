package io.jolt.stream.archive.service;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What this run of the index did: operations indexed (a restart resumes from the committed
 * offsets, so this counts only what was new), and archive records it could not read, each
 * also named in the log by partition and offset.
 */
public final class IndexCounts {
    final AtomicLong indexed = new AtomicLong();
    final AtomicLong unreadable = new AtomicLong();

    public long indexed() {
        return indexed.get();
    }

    public long unreadable() {
        return unreadable.get();
    }
}
