package io.jolt.stream.processor.store;

/**
 * The identity processor's state stores (RocksDB, changelogged). Every key begins with the
 * identity, so an identity's re-evaluation is a prefix scan and nothing else; only
 * {@link Keys} builds keys and only {@link IdentityStoreView} and {@link IdentityStore} read and
 * write them.
 */
public enum StoreName {
    /** (identity, record hash, signature) → AuthW */
    AUTHORITY("jolt-authority", false),
    /** (identity, device, sequence, hash, signature) → {@link StoredEntry} */
    ENTRIES("jolt-entries", false),
    /** (identity) → {@link IdentitySummary}; rewritten by every hot-path entry of the identity */
    IDENTITIES("jolt-identities", true),
    /**
     * (identity, path) → the path's active singleton heads, as one list of EntryW. One value per
     * path (at most one head per device): the hot path reads and rewrites it with point lookups,
     * never a scan over the deletions of superseded heads.
     */
    HEADS("jolt-heads", true),
    /**
     * (identity, path, hash) → (empty): hashes observed by eligible candidates of the path, so
     * that an entry arriving after one observed it is not made an active head. A re-evaluation
     * writes every observed hash; the hot path only those absent from the heads (see
     * {@link io.jolt.stream.protocol.SingletonMerge#extend}).
     */
    OBSERVED("jolt-observed", false),
    /** (identity, path, created_at, sequence, device, hash) → the content id of an eligible append record, in enumeration order */
    APPENDS("jolt-appends", false),
    /**
     * (identity, device, sequence, hash) → the archive marker of an entry sent to the bolt: empty
     * while eligible, {@link Keys#NO_LONGER_ELIGIBLE} after a fork switch or revocation took it
     * off the chosen branch (kept, so that an entry eligible again is not archived twice). The
     * hot path writes no marker: its entries carry {@link StoredEntry#archivedOnArrival()}, which
     * counts as "archived, eligible now" until a re-evaluation writes a marker.
     */
    ELIGIBLE("jolt-eligible", false),
    /** (identity, kind, ...) → (empty): diagnostics already reported, so re-evaluations do not repeat them */
    EMITTED("jolt-emitted", false),
    /** (identity) → uint64: how many distinct entries are held while not eligible (unknown_device, pending) */
    HELD("jolt-held", true),
    /** (identity) → CompactedHistory: the floors and superseded hashes of forgotten superseded history */
    COMPACTED("jolt-compacted", false);

    private final String storeName;
    private final boolean cached;

    StoreName(String storeName, boolean cached) {
        this.storeName = storeName;
        this.cached = cached;
    }

    /** The Kafka Streams store name (and so its changelog topic's); fixed, since renaming would orphan the changelog. */
    public String storeName() {
        return storeName;
    }

    /**
     * Whether a record cache sits in front of the store: the stores the hot path rewrites by key
     * fold those rewrites into one changelog record per commit; stores read by prefix scans stay
     * uncached (a scan over a cache merges two iterators).
     */
    public boolean cached() {
        return cached;
    }
}
