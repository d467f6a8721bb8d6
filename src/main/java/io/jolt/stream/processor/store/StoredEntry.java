package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;

/**
 * An entry as the entries store keeps it: the §8 wire form, where it was first read, and whether
 * the hot path archived it on arrival. That flag is the entry's eligible marker until a
 * re-evaluation writes one (see {@link StoreName#ELIGIBLE}): the hot path, which archives nearly
 * every entry, so writes one changelog record per entry instead of two.
 */
record StoredEntry(Entry entry, Source source, boolean archivedOnArrival) {
    byte[] encode() {
        return new CanonicalWriter(entry.bodyLength() + 120).bytes(entry.wire()).string(source.topic())
                .uint64(source.partition()).uint64(source.offset()).u8(archivedOnArrival ? 1 : 0).toByteArray();
    }

    static StoredEntry decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        Entry entry = Entry.fromWire(in.bytes());
        Source source = new Source(in.string(), (int) in.uint64(), in.uint64());
        int archived = in.u8();
        in.end();
        if (archived > 1) {
            throw new IllegalStateException("stored entry " + entry.hash() + ": archived flag " + archived);
        }
        return new StoredEntry(entry, source, archived == 1);
    }
}
