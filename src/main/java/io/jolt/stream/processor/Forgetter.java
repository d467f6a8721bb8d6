package io.jolt.stream.processor;

import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.processor.store.IdentityStore;
import io.jolt.stream.processor.store.StoredIdentity;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Utf8;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The identity processor's forgetting, as its {@link ForgettingPolicy} allows: it keeps the count
 * of held entries and drops beyond the bound, and sweeps superseded singleton history past its
 * retention. Whatever it forgets it reports ({@link IdentityOutputs#forgotten}).
 */
final class Forgetter {
    /** Identities a sweep visits per interval: bounded, so a punctuation never holds the thread for long. */
    static final int SWEEP_BATCH = 500;

    /** Nearest a root first: what a later Authorize or predecessor can admit soonest stays longest. */
    private static final Comparator<Entry> HELD_ORDER = Comparator
            .<Entry, Long>comparing(Entry::sequence, Long::compareUnsigned)
            .thenComparing(Entry::deviceId, Utf8.ORDER)
            .thenComparing(Entry::hash);

    private final ForgettingPolicy policy;
    private final IdentityStore store;
    private final IdentityOutputs outputs;
    private final SignatureCheck signatures;
    /** Where the sweep of superseded history resumes: the last identity it visited (this instance's memory only). */
    private String sweptUpTo;

    Forgetter(ForgettingPolicy policy, IdentityStore store, IdentityOutputs outputs, SignatureCheck signatures) {
        this.policy = policy;
        this.store = store;
        this.outputs = outputs;
        this.signatures = signatures;
    }

    /** One more entry held for an unknown device; true when the identity is now beyond the bound. */
    boolean holdOneMore(String identity) {
        long now = store.heldCount(identity) + 1;
        store.putHeldCount(identity, now);
        return now > policy.heldMax();
    }

    /**
     * Counts the entries held while not eligible and, beyond the bound, drops those with the
     * greatest (device_sequence, device_id, entry_hash) down to the low-water mark. Held entries
     * are on no branch, so dropping them leaves every eligible entry, and so the merged state,
     * as it is: the state is the one of the records kept. A dropped entry is forgotten whole (its
     * stored copies and its reported verdict), so received again it is treated as new.
     */
    void boundHeld(String identity, MergedState state, Map<Hash, Entry> stored) {
        Map<Hash, RejectionReason> heldAs = new HashMap<>();
        for (Rejection row : state.rejected()) {
            if (row.reason() == RejectionReason.UNKNOWN_DEVICE || row.reason() == RejectionReason.PENDING) {
                heldAs.put(row.entryHash(), row.reason());
            }
        }
        long count = heldAs.size();
        if (count > policy.heldMax()) {
            List<Entry> byDrop = new ArrayList<>();
            heldAs.keySet().forEach(h -> byDrop.add(stored.get(h)));
            byDrop.sort(HELD_ORDER);
            byDrop.subList((int) policy.lowWater(), byDrop.size()).forEach(e -> dropHeld(identity, e, heldAs.get(e.hash())));
            count = policy.lowWater();
        }
        if (count != store.heldCount(identity)) { // most re-evaluations hold nothing and held nothing: no changelog record
            store.putHeldCount(identity, count);
        }
    }

    private void dropHeld(String identity, Entry e, RejectionReason reason) {
        store.forgetHeld(identity, e, reason);
        outputs.forgotten(new ArchiveOperation.Compact(identity, e, ArchiveOperation.Cause.HELD_BOUND), RejectionKind.valueOf(reason.name()),
                "held as " + reason.wireName() + " beyond " + ForgettingPolicy.HELD_MAX + "=" + policy.heldMax());
    }

    /**
     * Visits a bounded batch of identities, resuming where the last sweep stopped, and forgets
     * the superseded singleton history each holds past the retention.
     */
    void sweep(long now) {
        outputs.at(now);
        long createdBefore = now - policy.supersededRetention().toMillis();
        List<String> batch = store.identitiesAfter(sweptUpTo, SWEEP_BATCH);
        sweptUpTo = batch.size() < SWEEP_BATCH ? null : batch.get(batch.size() - 1);
        batch.forEach(identity -> forgetSupersededHistory(identity, createdBefore));
    }

    private void forgetSupersededHistory(String identity, long createdBefore) {
        CompactedHistory before = store.compacted(identity);
        StoredIdentity stored = store.stored(identity);
        MergedState state = IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), before, signatures);
        CompactedHistory.Plan plan = before.plan(state, createdBefore);
        if (plan.forgotten().isEmpty()) {
            return;
        }
        for (Entry e : plan.forgotten()) {
            store.forgetSuperseded(identity, e);
            outputs.forgotten(new ArchiveOperation.Compact(identity, e, ArchiveOperation.Cause.SUPERSEDED_RETENTION), null,
                    "superseded on " + e.body().operation().path() + " by a later value of its device, written before "
                            + ForgettingPolicy.SUPERSEDED_RETENTION_MS + "=" + policy.supersededRetention().toMillis() + " ago");
        }
        store.putCompacted(identity, plan.next());
    }
}
