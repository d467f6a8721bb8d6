package io.jolt.stream.kafka;

import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import io.jolt.stream.protocol.Utf8;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The identity processor's forgetting (see {@link LiveForgetting}): it keeps the count of held
 * entries and drops beyond the bound, and sweeps superseded singleton history past its
 * retention. Whatever it forgets it hands to {@link Forgotten}, which reports it.
 */
final class LiveForgetter {
    /** Where a forgotten entry is reported: a Compact for the bolt and a record on jolt.compactions.v1. */
    interface Forgotten {
        void forget(ArchiveOperation.Compact compact, RejectionKind heldAs, String detail, Record<String, byte[]> cause);
    }

    private final LiveForgetting forgetting;
    private final Forgotten forgotten;
    private final KeyValueStore<Bytes, byte[]> authority;
    private final KeyValueStore<Bytes, byte[]> entries;
    private final KeyValueStore<Bytes, byte[]> identities;
    private final KeyValueStore<Bytes, byte[]> eligible;
    private final KeyValueStore<Bytes, byte[]> emitted;
    private final KeyValueStore<Bytes, byte[]> held;
    private final KeyValueStore<Bytes, byte[]> compactedStore;
    /** Where the sweep of superseded history resumes: the last identity it visited (this instance's memory only). */
    private Bytes sweptUpTo;

    LiveForgetter(LiveForgetting forgetting, Forgotten forgotten, KeyValueStore<Bytes, byte[]> authority,
            KeyValueStore<Bytes, byte[]> entries, KeyValueStore<Bytes, byte[]> identities, KeyValueStore<Bytes, byte[]> eligible,
            KeyValueStore<Bytes, byte[]> emitted, KeyValueStore<Bytes, byte[]> held, KeyValueStore<Bytes, byte[]> compacted) {
        this.forgetting = forgetting;
        this.forgotten = forgotten;
        this.authority = authority;
        this.entries = entries;
        this.identities = identities;
        this.eligible = eligible;
        this.emitted = emitted;
        this.held = held;
        this.compactedStore = compacted;
    }

    /** One more entry held for an unknown device; true when the identity is now beyond the bound. */
    boolean holdOneMore(String identity) {
        long now = heldCount(identity) + 1;
        held.put(Stores.identity(identity), uint64(now));
        return now > forgetting.heldMax();
    }

    /**
     * Counts the entries held while not eligible and, beyond the bound, drops those with the
     * greatest (device_sequence, device_id, entry_hash) down to the low-water mark. Held entries
     * are on no branch, so dropping them leaves every eligible entry, and so the merged state,
     * as it is: the state is the one of the records kept. A dropped entry is forgotten whole (its
     * stored copies and its reported verdict), so received again it is treated as new.
     */
    void boundHeld(String identity, MergedState state, Map<Hash, Entry> stored, Record<String, byte[]> record) {
        Map<Hash, RejectionReason> heldAs = new HashMap<>();
        for (Rejection row : state.rejected()) {
            if (row.reason() == RejectionReason.UNKNOWN_DEVICE || row.reason() == RejectionReason.PENDING) {
                heldAs.put(row.entryHash(), row.reason());
            }
        }
        long count = heldAs.size();
        if (count > forgetting.heldMax()) {
            List<Entry> byDrop = new ArrayList<>();
            heldAs.keySet().forEach(h -> byDrop.add(stored.get(h)));
            byDrop.sort(HELD_ORDER);
            for (Entry e : byDrop.subList((int) forgetting.lowWater(), byDrop.size())) {
                RejectionReason reason = heldAs.get(e.hash());
                StoreScans.deletePrefix(entries, Stores.entryHash(identity, e));
                emitted.delete(Stores.rejection(identity, e.hash(), reason));
                forgotten.forget(new ArchiveOperation.Compact(identity, e, ArchiveOperation.Cause.HELD_BOUND),
                        RejectionKind.valueOf(reason.name()),
                        "held as " + reason.wireName() + " beyond " + JoltConfig.HELD_MAX + "=" + forgetting.heldMax(), record);
            }
            count = forgetting.lowWater();
        }
        long was = heldCount(identity);
        if (count == was) {
            return; // most re-evaluations hold nothing and held nothing: no changelog record
        }
        if (count == 0) {
            held.delete(Stores.identity(identity));
        } else {
            held.put(Stores.identity(identity), uint64(count));
        }
    }

    /** Nearest a root first: what a later Authorize or predecessor can admit soonest stays longest. */
    private static final java.util.Comparator<Entry> HELD_ORDER = java.util.Comparator
            .<Entry, Long>comparing(Entry::sequence, Long::compareUnsigned)
            .thenComparing(Entry::deviceId, Utf8.ORDER)
            .thenComparing(Entry::hash);

    /**
     * Visits a bounded batch of identities, resuming where the last sweep stopped, and forgets
     * the superseded singleton history each holds past the retention.
     */
    void sweep(long now) {
        long createdBefore = now - forgetting.supersededRetention().toMillis();
        List<Bytes> batch = new ArrayList<>(SWEEP_BATCH);
        try (KeyValueIterator<Bytes, byte[]> it = sweptUpTo == null ? identities.all() : identities.range(Bytes.increment(sweptUpTo), null)) {
            while (it.hasNext() && batch.size() < SWEEP_BATCH) {
                batch.add(it.next().key);
            }
        }
        sweptUpTo = batch.size() < SWEEP_BATCH ? null : batch.get(batch.size() - 1);
        for (Bytes key : batch) {
            forgetSupersededHistory(StoreKey.identityOf(key), createdBefore, now);
        }
    }

    /** Identities a sweep visits per interval: bounded, so a punctuation never holds the thread for long. */
    static final int SWEEP_BATCH = 500;

    private void forgetSupersededHistory(String identity, long createdBefore, long now) {
        CompactedHistory before = compacted(identity);
        StoredIdentity stored = StoredIdentity.load(identity, authority, entries);
        MergedState state = IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), before);
        CompactedHistory.Plan plan = before.plan(state, createdBefore);
        if (plan.forgotten().isEmpty()) {
            return;
        }
        Record<String, byte[]> at = new Record<>(identity, null, now);
        for (Entry e : plan.forgotten()) {
            StoreScans.deletePrefix(entries, Stores.entryHash(identity, e));
            eligible.delete(Stores.entryHash(identity, e)); // archived already; no longer anything the live side holds
            forgotten.forget(new ArchiveOperation.Compact(identity, e, ArchiveOperation.Cause.SUPERSEDED_RETENTION), null,
                    "superseded on " + e.body().operation().path() + " by a later value of its device, written before "
                            + JoltConfig.SUPERSEDED_RETENTION_MS + "=" + forgetting.supersededRetention().toMillis() + " ago", at);
        }
        compactedStore.put(Stores.identity(identity), plan.next().encode());
    }

    CompactedHistory compacted(String identity) {
        return CompactedHistory.decode(compactedStore.get(Stores.identity(identity)));
    }

    private long heldCount(String identity) {
        byte[] v = held.get(Stores.identity(identity));
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    private static byte[] uint64(long n) {
        return ByteBuffer.allocate(Long.BYTES).putLong(n).array();
    }
}
