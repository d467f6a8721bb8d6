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
import io.jolt.stream.protocol.SingletonState;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

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

    IdentityOutputs(ProcessorContext<Object, Object> context, IdentityStore store, ProcessorMetrics metrics) {
        this.context = context;
        this.store = store;
        this.metrics = metrics;
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
        StateChange was = OutputRecords.stateChange(identity, path, before);
        StateChange now = OutputRecords.stateChange(identity, path, after);
        if (!was.equals(now)) {
            forward(JoltTopology.STATE_SINK, OutputRecords.stateKey(identity, path), now);
        }
        if (after != null && !after.conflicts().isEmpty() && !conflictHashes(before).equals(conflictHashes(after))) {
            conflict(identity, OutputRecords.concurrentHeads(identity, after, timestamp));
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
