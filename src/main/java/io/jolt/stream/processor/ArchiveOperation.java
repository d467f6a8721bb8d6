package io.jolt.stream.processor;

import io.jolt.stream.processor.store.Source;
import io.jolt.stream.protocol.Entry;

/**
 * What the live side tells the bolt (PROTOCOL §10). Insert and Remove carry the complete signed
 * entry, its dot and where it came from; Compact records that the live side forgot it. Only
 * {@link Content} reaches the archive: the bolt filter admits nothing else.
 */
public sealed interface ArchiveOperation {
    String identity();

    Entry entry();

    /** Insert or Remove: the only operations the archive ever holds. */
    sealed interface Content extends ArchiveOperation {
        Source source();
    }

    /** A newly eligible SetPath. */
    record Insert(String identity, Entry entry, Source source) implements Content {}

    /** A newly eligible TombstonePath. */
    record Remove(String identity, Entry entry, Source source) implements Content {}

    /** The live side forgot this entry: it no longer holds it as eligible, or no longer holds it at all. */
    record Compact(String identity, Entry entry, Cause cause) implements ArchiveOperation {}

    /** Why the live side forgot. */
    enum Cause {
        /** Held while not eligible (unknown_device, pending) and dropped by the per-identity bound. */
        HELD_BOUND,
        /** Eligible once, no longer: its device's branch lost to another, or a revocation cut it off. */
        FORK_SWITCH,
        /** Superseded singleton history older than the retention (see {@link io.jolt.stream.protocol.CompactedHistory}). */
        SUPERSEDED_RETENTION
    }
}
