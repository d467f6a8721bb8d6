package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;
import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;

/**
 * An entry as the entries store keeps it: the body bytes, where it was first read, and whether
 * the hot path archived it on arrival. That flag is the entry's eligible marker until a
 * re-evaluation writes one (see {@link StoreName#ELIGIBLE}): the hot path, which archives nearly
 * every entry, so writes one changelog record per entry instead of two.
 *
 * <p>The signature is not in the value: the key ends with it ({@link Keys#entry}), and 64 random
 * bytes written twice were a tenth of what the service wrote per entry. Values an earlier build
 * wrote (the whole §8 EntryW first, so their first byte is the high byte of its length, 0) are
 * still read.
 */
record StoredEntry(Entry entry, Source source, boolean archivedOnArrival) {
    /** The first byte of a value of this format; an earlier build's values begin with 0. */
    private static final int BODY_ONLY = 1;

    byte[] encode() {
        return new CanonicalWriter(entry.bodyLength() + 56).u8(BODY_ONLY).bytes(entry.bodyBytes()).string(source.topic())
                .uint64(source.partition()).uint64(source.offset()).u8(archivedOnArrival ? 1 : 0).toByteArray();
    }

    /** The stored entry under {@code key} (an entries-store key: it ends with the signature). */
    static StoredEntry decode(Bytes key, byte[] value) {
        CanonicalReader in = new CanonicalReader(value);
        Entry entry = value.length > 0 && value[0] == BODY_ONLY
                ? Entry.decode(bodyAfterFormat(in), signatureAtEnd(key))
                : Entry.fromWire(in.bytes());
        Source source = new Source(in.string(), (int) in.uint64(), in.uint64());
        int archived = in.u8();
        in.end();
        if (archived > 1) {
            throw new IllegalStateException("stored entry " + entry.hash() + ": archived flag " + archived);
        }
        return new StoredEntry(entry, source, archived == 1);
    }

    private static byte[] bodyAfterFormat(CanonicalReader in) {
        in.u8();
        return in.bytes();
    }

    private static byte[] signatureAtEnd(Bytes key) {
        byte[] k = key.get();
        return Arrays.copyOfRange(k, k.length - Entry.SIGNATURE_LENGTH, k.length);
    }
}
