package io.jolt.stream.kafka;

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

    /** The live side no longer holds this entry as eligible (a fork switch dropped its branch). */
    record Compact(String identity, Entry entry) implements ArchiveOperation {}
}
