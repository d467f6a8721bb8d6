package io.jolt.stream.archive;

import io.jolt.stream.avro.ArchiveRecord;

/**
 * The write-only archive, as the live side sees it: operations go in, nothing comes out, and an
 * append never throws (a failed one is reported by name, not raised: the live side must not stop
 * because the archive could not keep something).
 */
@FunctionalInterface
public interface Bolt {
    void append(ArchiveRecord operation);
}
