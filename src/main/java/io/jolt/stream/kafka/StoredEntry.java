package io.jolt.stream.kafka;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;

/** An entry as the entries store keeps it: the §8 wire form and where it was first read. */
record StoredEntry(Entry entry, Source source) {
    byte[] encode() {
        return new CanonicalWriter(entry.bodyLength() + 120).bytes(entry.wire()).string(source.topic())
                .uint64(source.partition()).uint64(source.offset()).toByteArray();
    }

    static StoredEntry decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        Entry entry = Entry.fromWire(in.bytes());
        Source source = new Source(in.string(), (int) in.uint64(), in.uint64());
        in.end();
        return new StoredEntry(entry, source);
    }
}
