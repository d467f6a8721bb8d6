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
    /** (identity, path, hash) → EntryW of an active singleton head */
    static final String HEADS = "jolt-heads";
    /** (identity, path, hash) → (empty): hashes observed by eligible candidates of the path */
    static final String OBSERVED = "jolt-observed";
    /** (identity, path, created_at, sequence, device, hash) → EntryW of an eligible append record */
    static final String APPENDS = "jolt-appends";
    /** (identity, device, sequence, hash) → (empty): eligible entries already sent to the bolt */
    static final String ELIGIBLE = "jolt-eligible";
    /** (identity, kind, ...) → (empty): diagnostics already emitted, so re-evaluations do not repeat them */
    static final String EMITTED = "jolt-emitted";

    static final List<String> ALL = List.of(AUTHORITY, ENTRIES, IDENTITIES, HEADS, OBSERVED, APPENDS, ELIGIBLE, EMITTED);

    static final byte[] EMPTY = new byte[0];

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

    static Bytes append(String identity, Entry e) {
        return StoreKey.of(identity).text(e.body().operation().path()).uint64(e.body().createdAt()).uint64(e.sequence())
                .text(e.deviceId()).hash(e.hash()).toBytes();
    }

    static Bytes eligible(String identity, Entry e) {
        return StoreKey.of(identity).text(e.deviceId()).uint64(e.sequence()).hash(e.hash()).toBytes();
    }

    static Bytes rejection(String identity, Hash hash, RejectionReason reason) {
        return StoreKey.of(identity).text("rejected").hash(hash).text(reason.name()).toBytes();
    }

    static Bytes equivocation(String identity, String device, long sequence, int count) {
        return StoreKey.of(identity).text("equivocation").text(device).uint64(sequence).uint64(count).toBytes();
    }
}
