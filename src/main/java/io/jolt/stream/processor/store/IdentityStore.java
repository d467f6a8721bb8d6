package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.AuthorityFork;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/** The identity processor's stores, each write one call: the read-write face of {@link IdentityStoreView}. */
public final class IdentityStore extends IdentityStoreView {
    private final Function<StoreName, KeyValueStore<Bytes, byte[]>> open;

    public IdentityStore(Function<StoreName, KeyValueStore<Bytes, byte[]>> open) {
        super(open);
        this.open = open;
    }

    /** What a re-evaluation changed of the archive: entries eligible for the first time, and entries eligible no longer. */
    public record ArchiveChange(List<Entry> newlyEligible, List<Entry> noLongerEligible) {}

    private KeyValueStore<Bytes, byte[]> write(StoreName name) {
        return (KeyValueStore<Bytes, byte[]>) read(name);
    }

    /** Stores an authority record; false when this very record is stored already (nothing can change). */
    public boolean addAuthority(AuthorityRecord record) {
        Bytes key = Keys.authority(record.body().identity(), record.hash(), record.signature());
        return write(StoreName.AUTHORITY).putIfAbsent(key, record.wire()) == null;
    }

    public void putEntry(Entry entry, Source source, boolean archivedOnArrival) {
        write(StoreName.ENTRIES).put(Keys.entry(entry), new StoredEntry(entry, source, archivedOnArrival).encode());
    }

    public void putSummary(String identity, IdentitySummary summary) {
        write(StoreName.IDENTITIES).put(Keys.identity(identity), summary.encode());
    }

    /** The identity has no valid authority chain (any more). */
    public void deleteSummary(String identity) {
        write(StoreName.IDENTITIES).delete(Keys.identity(identity));
    }

    /** A path's active heads as last committed and as they are now, and the timestamp of the record that made them so. */
    public record HeadsFlushed(List<Entry> before, List<Entry> after, long timestamp) {}

    /**
     * Calls {@code listener} each time the heads store's record cache writes a path's heads
     * through (at each commit, before it, and when the cache evicts), with the heads the store
     * held before: the DSL's KTables emit their changes the same way. Returns false, and never
     * calls it, when the store has no record cache (Kafka's {@code CachedStateStore} is internal:
     * the one place this project leans on Streams' internals).
     */
    @SuppressWarnings("unchecked")
    public boolean onHeadsFlushed(Consumer<HeadsFlushed> listener) {
        if (!(write(StoreName.HEADS) instanceof CachedStateStore<?, ?> cached)) {
            return false;
        }
        return ((CachedStateStore<Bytes, byte[]>) cached).setFlushListener(r -> listener.accept(
                new HeadsFlushed(Keys.decodeHeads(r.value().oldValue), Keys.decodeHeads(r.value().newValue), r.timestamp())), true);
    }

    public void putHeads(String identity, String path, List<Entry> heads) {
        write(StoreName.HEADS).put(Keys.path(identity, path), Keys.encodeHeads(heads));
    }

    public void markObserved(String identity, String path, Hash hash) {
        write(StoreName.OBSERVED).put(Keys.pathHash(identity, path, hash), Keys.EMPTY);
    }

    public void putAppend(String identity, Entry append) {
        write(StoreName.APPENDS).put(Keys.append(identity, append), Keys.appendValue(append));
    }

    /** Drops what a re-evaluation derives again: the heads, observed marks and append records of the identity. */
    public void clearDerived(String identity) {
        for (StoreName derived : new StoreName[] {StoreName.HEADS, StoreName.OBSERVED, StoreName.APPENDS}) {
            StoreScans.deletePrefix(write(derived), Keys.identity(identity));
        }
    }

    /**
     * Marks the entries eligible now, and those archived before and eligible no longer, and says
     * which changed. An entry eligible again after a fork switch is not archived twice: the
     * archive holds one operation per entry ever eligible.
     */
    public ArchiveChange reconcileArchive(String identity, List<Entry> eligibleNow, StoredIdentity stored) {
        // Every entry ever archived → whether it counts as eligible now; in key order, so the changes come out in a stable order.
        Map<Bytes, Boolean> archived = new TreeMap<>();
        stored.archivedOnArrival().forEach(e -> archived.put(Keys.entryHash(identity, e), true));
        StoreScans.forEach(write(StoreName.ELIGIBLE), Keys.identity(identity), (key, marker) -> archived.put(key, Keys.eligibleNow(marker, false)));
        List<Entry> newly = new ArrayList<>();
        for (Entry e : eligibleNow) {
            Bytes key = Keys.entryHash(identity, e);
            Boolean wasEligible = archived.remove(key);
            if (wasEligible == null || !wasEligible) {
                write(StoreName.ELIGIBLE).put(key, Keys.EMPTY);
            }
            if (wasEligible == null) {
                newly.add(e);
            }
        }
        List<Entry> noLonger = new ArrayList<>();
        archived.forEach((key, wasEligible) -> {
            if (wasEligible) {
                write(StoreName.ELIGIBLE).put(key, Keys.NO_LONGER_ELIGIBLE);
                Entry entry = stored.byHash().get(Keys.hashAtEnd(key));
                if (entry != null) {
                    noLonger.add(entry);
                }
            }
        });
        return new ArchiveChange(newly, noLonger);
    }

    /** Whether this is the first report of the rejection (then remembered as reported). */
    public boolean firstReport(String identity, Rejection row) {
        return write(StoreName.EMITTED).putIfAbsent(Keys.rejection(identity, row.entryHash(), row.reason()), Keys.EMPTY) == null;
    }

    /** Whether this is the first report of the equivocation evidence (then remembered as reported). */
    public boolean firstReport(String identity, Equivocation evidence) {
        Bytes key = Keys.equivocation(identity, evidence.deviceId(), evidence.deviceSequence(), evidence.entryHashes().size());
        return write(StoreName.EMITTED).putIfAbsent(key, Keys.EMPTY) == null;
    }

    /** Whether this is the first report of the authority fork at its sequence with its number of records. */
    public boolean firstReport(String identity, AuthorityFork fork) {
        Bytes key = Keys.authorityFork(identity, fork.authoritySequence(), fork.recordHashes().size());
        return write(StoreName.EMITTED).putIfAbsent(key, Keys.EMPTY) == null;
    }

    /** Forgets a held entry whole (its stored copies and its reported verdict): received again, it is new. */
    public void forgetHeld(String identity, Entry entry, RejectionReason heldAs) {
        StoreScans.deletePrefix(write(StoreName.ENTRIES), Keys.entryHash(identity, entry));
        write(StoreName.EMITTED).delete(Keys.rejection(identity, entry.hash(), heldAs));
    }

    /** Forgets superseded history: archived already, no longer anything the live side holds. */
    public void forgetSuperseded(String identity, Entry entry) {
        StoreScans.deletePrefix(write(StoreName.ENTRIES), Keys.entryHash(identity, entry));
        write(StoreName.ELIGIBLE).delete(Keys.entryHash(identity, entry));
    }

    public void putHeldCount(String identity, long count) {
        if (count == 0) {
            write(StoreName.HELD).delete(Keys.identity(identity));
        } else {
            write(StoreName.HELD).put(Keys.identity(identity), ByteBuffer.allocate(Long.BYTES).putLong(count).array());
        }
    }

    public void putCompacted(String identity, CompactedHistory compacted) {
        write(StoreName.COMPACTED).put(Keys.identity(identity), compacted.encode());
    }

    /** At most {@code max} identities with a summary, in key order, after {@code after} (from the first when null). */
    public List<String> identitiesAfter(String after, int max) {
        List<String> out = new ArrayList<>(max);
        KeyValueStore<Bytes, byte[]> identities = write(StoreName.IDENTITIES);
        try (KeyValueIterator<Bytes, byte[]> it = after == null ? identities.all() : identities.range(Bytes.increment(Keys.identity(after)), null)) {
            while (it.hasNext() && out.size() < max) {
                out.add(StoreKey.identityOf(it.next().key));
            }
        }
        return out;
    }
}
