package io.jolt.stream.processor;

import io.jolt.stream.avro.ArchiveRecord;

/**
 * The write-only archive, as the live side sees it (the port the topology needs; the bolt on
 * Kafka, {@code io.jolt.stream.archive.KafkaBolt}, is wired in by whoever starts the service):
 * operations go in, nothing comes out, and an append never throws (a failed one is reported by
 * name, not raised: the live side must not stop because the archive could not keep something).
 */
@FunctionalInterface
public interface Bolt extends AutoCloseable {
    void append(ArchiveRecord operation);

    /**
     * Waits until every operation appended so far is in the archive or named as lost: a stream
     * transaction commits only after this returns ({@link BoltBeforeCommit}). A bolt that keeps
     * nothing in flight has nothing to wait for.
     */
    default void flush() {}

    /** Releases what the bolt holds; a bolt that holds nothing has nothing to do. */
    @Override
    default void close() {}
}
