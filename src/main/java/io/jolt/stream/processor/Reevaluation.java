package io.jolt.stream.processor;

import io.jolt.stream.processor.store.IdentityStore;
import io.jolt.stream.processor.store.IdentitySummary;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.processor.store.StoredIdentity;
import io.jolt.stream.protocol.AuthorityFork;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.Utf8;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Anything the hot path does not take (a late Authorize, a revocation, a fork, a predecessor
 * arriving for pending entries, a fork switch) recomputes the identity from its stored records
 * with the protocol core ({@link IdentityAssembler}), rewrites what the stores derive from the
 * merged state, and emits only the difference.
 */
final class Reevaluation {
    private final IdentityStore store;
    private final IdentityOutputs outputs;
    private final Forgetter forgetter;
    private final ProcessorMetrics metrics;
    private final SignatureCheck signatures;

    Reevaluation(IdentityStore store, IdentityOutputs outputs, Forgetter forgetter, ProcessorMetrics metrics, SignatureCheck signatures) {
        this.store = store;
        this.outputs = outputs;
        this.forgetter = forgetter;
        this.metrics = metrics;
        this.signatures = signatures;
    }

    /** Recomputes the identity from every stored record and emits what changed; {@code trigger} is the record that asked. */
    void reevaluate(String identity, Source trigger) {
        metrics.reevaluations.record();
        StoredIdentity stored = store.stored(identity);
        CompactedHistory forgotten = store.compacted(identity);
        MergedState state = IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), forgotten, signatures);
        Map<String, SingletonState> before = resolutions(store.allHeads(identity));
        List<Entry> eligible = eligible(state);
        rewriteDerived(identity, state, eligible, forgotten);
        emitChangedResolutions(identity, before, state);
        reconcileArchive(identity, eligible, stored, trigger);
        for (Rejection row : state.rejected()) {
            outputs.rejection(identity, row, stored.sources().getOrDefault(row.entryHash(), trigger));
        }
        for (Equivocation evidence : state.equivocations()) {
            outputs.equivocation(identity, evidence);
        }
        for (AuthorityFork fork : state.authority().forks()) {
            outputs.authorityFork(identity, fork);
        }
        forgetter.boundHeld(identity, state, stored.byHash());
    }

    /** The summary, heads, observed marks and append records, as the merged state has them. */
    private void rewriteDerived(String identity, MergedState state, List<Entry> eligible, CompactedHistory forgotten) {
        store.clearDerived(identity);
        for (CompactedHistory.Superseded s : forgotten.superseded()) {
            store.markObserved(identity, s.path(), s.hash());
        }
        for (Entry e : eligible) {
            Operation operation = e.body().operation();
            if (operation.isSingletonCandidate()) {
                for (Hash h : e.body().observedHeads()) {
                    store.markObserved(identity, operation.path(), h);
                }
            } else {
                store.putAppend(identity, e);
            }
        }
        for (SingletonState s : state.singletons()) {
            List<Entry> active = new ArrayList<>(s.conflicts());
            active.add(s.current());
            store.putHeads(identity, s.path(), active);
        }
        if (state.authority().isEmpty()) {
            store.deleteSummary(identity);
        } else {
            store.putSummary(identity, IdentitySummary.of(state));
        }
    }

    private void emitChangedResolutions(String identity, Map<String, SingletonState> before, MergedState state) {
        Map<String, SingletonState> after = new TreeMap<>(Utf8.ORDER);
        state.singletons().forEach(s -> after.put(s.path(), s));
        Set<String> paths = new TreeSet<>(Utf8.ORDER);
        paths.addAll(before.keySet());
        paths.addAll(after.keySet());
        for (String path : paths) {
            outputs.resolutionChanged(identity, path, before.get(path), after.get(path));
        }
    }

    /** Insert/Remove for entries eligible for the first time, Compact for entries eligible no longer. */
    private void reconcileArchive(String identity, List<Entry> eligible, StoredIdentity stored, Source trigger) {
        IdentityStore.ArchiveChange change = store.reconcileArchive(identity, eligible, stored);
        for (Entry e : change.newlyEligible()) {
            outputs.archive(identity, e, stored.sources().getOrDefault(e.hash(), trigger));
        }
        for (Entry e : change.noLongerEligible()) {
            outputs.forgotten(new ArchiveOperation.Compact(identity, e, ArchiveOperation.Cause.FORK_SWITCH), null,
                    "no longer eligible: its branch lost, or a revocation cut it off");
        }
    }

    /** Every device's eligible entries, device by device. */
    private static List<Entry> eligible(MergedState state) {
        List<Entry> out = new ArrayList<>();
        for (DeviceLog log : state.deviceLogs()) {
            out.addAll(log.eligible());
        }
        return out;
    }

    private static Map<String, SingletonState> resolutions(Map<String, List<Entry>> headsByPath) {
        Map<String, SingletonState> out = new TreeMap<>(Utf8.ORDER);
        headsByPath.forEach((path, heads) -> SingletonMerge.resolve(path, heads).ifPresent(s -> out.put(path, s)));
        return out;
    }
}
