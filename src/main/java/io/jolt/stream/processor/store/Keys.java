package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.RejectionReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;

/** The keys of the stores of {@link StoreName} and the few values that are not records of their own. */
final class Keys {
    static final byte[] EMPTY = new byte[0];
    static final byte[] NO_LONGER_ELIGIBLE = {1};

    private Keys() {}

    static Bytes identity(String identity) {
        return StoreKey.of(identity).toBytes();
    }

    static Bytes authority(String identity, Hash hash, byte[] signature) {
        return StoreKey.of(identity).hash(hash).bytes(signature).toBytes();
    }

    static Bytes entry(Entry e) {
        return StoreKey.of(e.body().identity()).text(e.deviceId()).uint64(e.sequence()).hash(e.hash()).bytes(e.signature()).toBytes();
    }

    /**
     * (identity, device, sequence, hash): one entry whatever its signature. The archive marker's
     * key, and in the entries store the prefix of every stored copy of the entry.
     */
    static Bytes entryHash(String identity, String device, long sequence, Hash hash) {
        return StoreKey.of(identity).text(device).uint64(sequence).hash(hash).toBytes();
    }

    static Bytes entryHash(String identity, Entry e) {
        return entryHash(identity, e.deviceId(), e.sequence(), e.hash());
    }

    /** The hash an {@link #entryHash} key ends with. */
    static Hash hashAtEnd(Bytes entryHashKey) {
        byte[] k = entryHashKey.get();
        return Hash.of(java.util.Arrays.copyOfRange(k, k.length - Hash.LENGTH, k.length));
    }

    static Bytes device(String identity, String device) {
        return StoreKey.of(identity).text(device).toBytes();
    }

    static Bytes deviceSequence(String identity, String device, long sequence) {
        return StoreKey.of(identity).text(device).uint64(sequence).toBytes();
    }

    static Bytes path(String identity, String path) {
        return StoreKey.of(identity).text(path).toBytes();
    }

    static Bytes pathHash(String identity, String path, Hash hash) {
        return StoreKey.of(identity).text(path).hash(hash).toBytes();
    }

    /** In §6 enumeration order: path bytes, then (created_at, sequence, device_id, hash). */
    static Bytes append(String identity, Entry e) {
        return StoreKey.of(identity).orderedPath(e.body().operation().path()).uint64(e.body().createdAt()).uint64(e.sequence())
                .orderedPath(e.deviceId()).hash(e.hash()).toBytes();
    }

    /** The first byte of an appends-store value of {@link #appendValue}; an earlier build's values (the EntryW itself) begin with 0. */
    private static final int CONTENT_ID = 1;

    /**
     * An appends-store value: the append record's content id. Everything else enumeration shows
     * is in the key ({@link #append}); the whole entry is in the entries store already.
     */
    static byte[] appendValue(Entry e) {
        Operation.SetPath set = (Operation.SetPath) e.body().operation();
        return new CanonicalWriter(64).u8(CONTENT_ID).string(set.contentId()).toByteArray();
    }

    /** The append record of an appends-store row; empty for an earlier build's row, whose value is the EntryW itself. */
    static Optional<AppendRecord> appendRecord(Bytes key, byte[] value) {
        if (value.length == 0 || value[0] != CONTENT_ID) {
            return Optional.empty();
        }
        CanonicalReader in = new CanonicalReader(value);
        in.u8();
        String contentId = in.string();
        in.end();
        StoreKey.Reader k = StoreKey.read(key);
        k.text(); // the identity
        String path = k.orderedPath();
        long createdAt = k.uint64();
        long sequence = k.uint64();
        String device = k.orderedPath();
        return Optional.of(new AppendRecord(path, contentId, device, sequence, createdAt, k.hash()));
    }

    static Bytes appendPrefix(String identity, String pathPrefix) {
        return StoreKey.of(identity).pathPrefix(pathPrefix).toBytes();
    }

    static Bytes rejection(String identity, Hash hash, RejectionReason reason) {
        return StoreKey.of(identity).text("rejected").hash(hash).text(reason.name()).toBytes();
    }

    static Bytes equivocation(String identity, String device, long sequence, int count) {
        return StoreKey.of(identity).text("equivocation").text(device).uint64(sequence).uint64(count).toBytes();
    }

    static Bytes authorityFork(String identity, long authoritySequence, int count) {
        return StoreKey.of(identity).text("authority-fork").uint64(authoritySequence).uint64(count).toBytes();
    }

    static byte[] encodeHeads(List<Entry> heads) {
        CanonicalWriter out = new CanonicalWriter().uint64(heads.size());
        heads.forEach(h -> out.bytes(h.wire()));
        return out.toByteArray();
    }

    static List<Entry> decodeHeads(byte[] value) {
        if (value == null) {
            return new ArrayList<>();
        }
        CanonicalReader in = new CanonicalReader(value);
        int count = in.count(8);
        List<Entry> heads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            heads.add(Entry.fromWire(in.bytes()));
        }
        in.end();
        return heads;
    }

    /** Whether an entry counts as archived and eligible now: its marker when it has one, else whether the hot path archived it. */
    static boolean eligibleNow(byte[] marker, boolean archivedOnArrival) {
        return marker != null ? marker.length == 0 : archivedOnArrival;
    }
}
