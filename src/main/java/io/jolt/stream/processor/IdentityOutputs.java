package io.jolt.stream.processor;

import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.store.IdentityStore;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.protocol.AuthorityFork;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;

/**
 * Everything the identity processor tells the world, one method per kind of output, each
 * counted: state changes, conflict events, rejections (each reported once), archive operations
 * for the bolt filter, and what the live side forgot. Outputs carry the timestamp of the record
 * (or punctuation) being processed, set by {@link #at}.
 */
final class IdentityOutputs {
    private final ProcessorContext<Object, Object> context;
    private final IdentityStore store;
    private final ProcessorMetrics metrics;
    private long timestamp;
    private boolean statesFolded;

    IdentityOutputs(ProcessorContext<Object, Object> context, IdentityStore store, ProcessorMetrics metrics) {
        this.context = context;
        this.store = store;
        this.metrics = metrics;
    }

    /**
     * From now on the state topic gets a path's change once per commit, when the heads store's
     * record cache writes the path's heads through, instead of once per record that changes its
     * resolution: the heads store is keyed as the state topic is, so its old and new values are
     * the resolution committed before and the one to commit now. Rewrites within a commit fold
     * into one record (a path rewritten back to what was committed, into none), and the record
     * commits with the heads it reports, in the same transaction. Without a record cache (none
     * configured, or a context that is not Kafka Streams' own) the state goes out per record.
     */
    void foldStateChanges() {
        if (!(context instanceof InternalProcessorContext<?, ?> internal)) {
            return;
        }
        ProcessorNode<?, ?, ?, ?> self = internal.currentNode();
        statesFolded = store.onHeadsFlushed(flushed -> {
            // A flush at a commit runs outside any processor: forward as this node, as the DSL's cache flush listeners do.
            ProcessorNode<?, ?, ?, ?> running = internal.currentNode();
            internal.setCurrentNode(self);
            try {
                stateChanged(flushed);
            } finally {
                internal.setCurrentNode(running);
            }
        });
    }

    /** The timestamp of what is being processed now. */
    void at(long timestamp) {
        this.timestamp = timestamp;
    }

    /**
     * The state topic gets a record when the resolution (state, content, head, conflict count)
     * changes; the conflicts topic when the set of losing active heads changes.
     */
    void resolutionChanged(String identity, String path, SingletonState before, SingletonState after) {
        if (!statesFolded) {
            stateChanged(identity, path, before, after, timestamp);
        }
        if (after != null && !after.conflicts().isEmpty() && !conflictHashes(before).equals(conflictHashes(after))) {
            conflict(identity, OutputRecords.concurrentHeads(identity, after, timestamp));
        }
    }

    private void stateChanged(IdentityStore.HeadsFlushed flushed) {
        Entry any = flushed.after().isEmpty() ? (flushed.before().isEmpty() ? null : flushed.before().get(0)) : flushed.after().get(0);
        if (any != null) {
            String path = any.body().operation().path();
            stateChanged(any.body().identity(), path, SingletonMerge.resolve(path, flushed.before()).orElse(null),
                    SingletonMerge.resolve(path, flushed.after()).orElse(null), flushed.timestamp());
        }
    }

    private void stateChanged(String identity, String path, SingletonState before, SingletonState after, long at) {
        StateChange was = OutputRecords.stateChange(identity, path, before);
        StateChange now = OutputRecords.stateChange(identity, path, after);
        if (!was.equals(now)) {
            context.forward(new Record<>(OutputRecords.stateKey(identity, path), now, at), JoltTopology.STATE_SINK);
        }
    }

    /** Equivocation evidence, once per device, sequence and number of entries. */
    void equivocation(String identity, Equivocation evidence) {
        if (store.firstReport(identity, evidence)) {
            conflict(identity, OutputRecords.equivocation(identity, evidence, timestamp));
        }
    }

    /** Competing authority records, once per authority sequence and number of records. */
    void authorityFork(String identity, AuthorityFork fork) {
        if (store.firstReport(identity, fork)) {
            conflict(identity, OutputRecords.authorityFork(identity, fork, timestamp));
        }
    }

    /** A verdict on an entry, once per entry and reason. */
    void rejection(String identity, Rejection row, Source source) {
        if (store.firstReport(identity, row)) {
            rejected(identity, OutputRecords.rejected(identity, row, source));
        }
    }

    /** A record that is not one of its topic (undecodable, keyed by another identity): every time. */
    void rejected(String identity, RejectedRecord report) {
        metrics.rejected(report.getReason());
        forward(JoltTopology.REJECTED_SINK, identity, report);
    }

    /** An entry eligible for the first time: an Insert, or a Remove for a tombstone. */
    void archive(String identity, Entry entry, Source source) {
        ArchiveOperation op = entry.body().operation() instanceof Operation.TombstonePath
                ? new ArchiveOperation.Remove(identity, entry, source)
                : new ArchiveOperation.Insert(identity, entry, source);
        forward(JoltTopology.BOLT_FILTER, identity, op);
    }

    /** The live side forgot an entry: a Compact for the bolt (which drops it) and a named report. */
    void forgotten(ArchiveOperation.Compact compact, RejectionKind heldAs, String detail) {
        metrics.compacted(compact.cause());
        forward(JoltTopology.BOLT_FILTER, compact.identity(), compact);
        forward(JoltTopology.COMPACTIONS_SINK, compact.identity(), OutputRecords.compaction(compact, heldAs, detail));
    }

    private void conflict(String identity, io.jolt.stream.avro.ConflictEvent event) {
        metrics.conflicts.record();
        forward(JoltTopology.CONFLICTS_SINK, identity, event);
    }

    private static List<Hash> conflictHashes(SingletonState state) {
        return state == null ? List.of() : state.conflicts().stream().map(Entry::hash).toList();
    }

    private void forward(String child, Object key, Object value) {
        context.forward(new Record<>(key, value, timestamp), child);
    }
}
