package io.jolt.stream.kafka;

import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.RejectionReason;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;

/**
 * The state stores (RocksDB, changelogged) and their keys. Every key begins with the identity,
 * so an identity's re-evaluation is a prefix scan and nothing else.
 */
final class Stores {
    /** (identity, record hash, signature) → AuthW */
    static final String AUTHORITY = "jolt-authority";
    /** (identity, device, sequence, hash, signature) → StoredEntry */
    static final String ENTRIES = "jolt-entries";
    /** (identity) → IdentitySummary */
    static final String IDENTITIES = "jolt-identities";
    /**
     * (identity, path) → the path's active singleton heads, as one list of EntryW. One value per
     * path (at most one head per device): the hot path reads and rewrites it with point lookups,
     * never a scan over the deletions of superseded heads.
     */
    static final String HEADS = "jolt-heads";
    /**
     * (identity, path, hash) → (empty): hashes observed by eligible candidates of the path, so
     * that an entry arriving after one observed it is not made an active head. A re-evaluation
     * writes every observed hash; the hot path skips those of active heads (stored already).
     */
    static final String OBSERVED = "jolt-observed";
    /** (identity, path, created_at, sequence, device, hash) → EntryW of an eligible append record, in enumeration order */
    static final String APPENDS = "jolt-appends";
    /**
     * (identity, device, sequence, hash) → the archive marker of an entry sent to the bolt: empty
     * while eligible, {@link #NO_LONGER_ELIGIBLE} after a fork switch or revocation took it off
     * the chosen branch (kept, so that an entry eligible again is not archived twice). The hot
     * path writes no marker: its entries carry {@link StoredEntry#archivedOnArrival()}, which
     * counts as "archived, eligible now" until a re-evaluation writes a marker; see
     * {@link #eligibleNow}.
     */
    static final String ELIGIBLE = "jolt-eligible";
    /** (identity, kind, ...) → (empty): diagnostics already emitted, so re-evaluations do not repeat them */
    static final String EMITTED = "jolt-emitted";

    /** (identity) → uint64: how many distinct entries are held while not eligible (unknown_device, pending) */
    static final String HELD = "jolt-held";

    /** (identity) → CompactedHistory: the floors and superseded hashes of forgotten superseded history */
    static final String COMPACTED = "jolt-compacted";

    static final List<String> ALL = List.of(AUTHORITY, ENTRIES, IDENTITIES, HEADS, OBSERVED, APPENDS, ELIGIBLE, EMITTED, HELD, COMPACTED);

    static final byte[] EMPTY = new byte[0];
    static final byte[] NO_LONGER_ELIGIBLE = {1};

    private Stores() {}

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
     * (identity, device, sequence, hash): one entry whatever its signature. The eligible store's
     * key, and in the entries store the prefix of every stored copy of the entry.
     */
    static Bytes entryHash(String identity, String device, long sequence, Hash hash) {
        return StoreKey.of(identity).text(device).uint64(sequence).hash(hash).toBytes();
    }

    static Bytes entryHash(String identity, Entry e) {
        return entryHash(identity, e.deviceId(), e.sequence(), e.hash());
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

    static byte[] encodeHeads(java.util.List<Entry> heads) {
        io.jolt.stream.protocol.CanonicalWriter out = new io.jolt.stream.protocol.CanonicalWriter().uint64(heads.size());
        heads.forEach(h -> out.bytes(h.wire()));
        return out.toByteArray();
    }

    static java.util.List<Entry> decodeHeads(byte[] value) {
        if (value == null) {
            return new java.util.ArrayList<>();
        }
        io.jolt.stream.protocol.CanonicalReader in = new io.jolt.stream.protocol.CanonicalReader(value);
        int count = in.count(8);
        java.util.List<Entry> heads = new java.util.ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            heads.add(Entry.fromWire(in.bytes()));
        }
        in.end();
        return heads;
    }

    static Bytes appendPrefix(String identity, String pathPrefix) {
        return StoreKey.of(identity).pathPrefix(pathPrefix).toBytes();
    }

    static boolean isEligibleNow(byte[] eligibleValue) {
        return eligibleValue.length == 0;
    }

    /** Whether an entry counts as archived and eligible now: its marker when it has one, else whether the hot path archived it. */
    static boolean eligibleNow(byte[] marker, boolean archivedOnArrival) {
        return marker != null ? isEligibleNow(marker) : archivedOnArrival;
    }

    static Bytes rejection(String identity, Hash hash, RejectionReason reason) {
        return StoreKey.of(identity).text("rejected").hash(hash).text(reason.name()).toBytes();
    }

    static Bytes equivocation(String identity, String device, long sequence, int count) {
        return StoreKey.of(identity).text("equivocation").text(device).uint64(sequence).uint64(count).toBytes();
    }
}
