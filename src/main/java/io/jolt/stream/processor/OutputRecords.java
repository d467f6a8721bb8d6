package io.jolt.stream.processor;

import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictHead;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.HeadRef;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.processor.store.StoreKey;
import io.jolt.stream.protocol.AuthorityFork;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.Uint64;
import io.jolt.stream.wire.AvroRecords;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;

/** Builds the Avro values of the output topics from protocol values. */
final class OutputRecords {
    private OutputRecords() {}

    /** The state topic's key: identity and path, each length-prefixed (so one identity's paths are adjacent in a compacted topic). */
    static byte[] stateKey(String identity, String path) {
        return StoreKey.of(identity).text(path).toBytes().get();
    }

    static StateChange stateChange(String identity, String path, SingletonState state) {
        if (state == null) {
            return new StateChange(identity, path, PathState.NOT_FOUND, null, null, 0);
        }
        return new StateChange(identity, path, state.isTombstoned() ? PathState.TOMBSTONED : PathState.PRESENT,
                state.contentId(), head(state.head()), state.conflicts().size());
    }

    static HeadRef head(Head head) {
        return new HeadRef(head.deviceId(), Uint64.decimal(head.deviceSequence()), AvroRecords.hash32(head.entryHash()));
    }

    static ConflictEvent concurrentHeads(String identity, SingletonState state, long eventTime) {
        List<HeadRef> losers = state.conflicts().stream().map(e -> head(Head.of(e))).toList();
        return new ConflictEvent(identity, ConflictKind.CONCURRENT_HEADS, state.path(), head(state.head()), losers, null, null, List.of(),
                Instant.ofEpochMilli(eventTime), state.clockSensitive(), conflictHead(state.current()),
                state.conflicts().stream().map(OutputRecords::conflictHead).toList(), null, null);
    }

    static ConflictEvent equivocation(String identity, Equivocation evidence, long eventTime) {
        return new ConflictEvent(identity, ConflictKind.EQUIVOCATION, null, null, List.of(), evidence.deviceId(),
                Uint64.decimal(evidence.deviceSequence()), evidence.entryHashes().stream().map(AvroRecords::hash32).toList(), Instant.ofEpochMilli(eventTime),
                false, null, List.of(), null, null);
    }

    static ConflictEvent authorityFork(String identity, AuthorityFork fork, long eventTime) {
        return new ConflictEvent(identity, ConflictKind.AUTHORITY_FORK, null, null, List.of(), null, null,
                fork.recordHashes().stream().map(AvroRecords::hash32).toList(), Instant.ofEpochMilli(eventTime), false, null, List.of(),
                Uint64.decimal(fork.authoritySequence()), fork.chosen() == null ? null : AvroRecords.hash32(fork.chosen()));
    }

    private static ConflictHead conflictHead(Entry head) {
        boolean tombstone = head.body().operation() instanceof Operation.TombstonePath;
        return new ConflictHead(head.deviceId(), Uint64.decimal(head.sequence()), AvroRecords.hash32(head.hash()), tombstone ? PathState.TOMBSTONED : PathState.PRESENT,
                SingletonState.contentIdOf(head), Uint64.decimal(head.body().createdAt()));
    }

    static RejectedRecord rejected(String identity, Rejection row, Source source) {
        String rule = row.defect() != null ? row.defect().name() : row.reason().name();
        String detail = row.defect() != null ? row.defect().description() : row.reason().wireName();
        return new RejectedRecord(identity, RejectionKind.valueOf(row.reason().name()), rule, detail,
                AvroRecords.hash32(row.entryHash()), row.deviceId(), Uint64.decimalOrNull(row.deviceSequence()),
                source.topic(), source.partition(), source.offset(), null, null);
    }

    static RejectedRecord undecodable(String key, String rule, String detail, Source source, byte[] rawKey, byte[] rawValue) {
        return new RejectedRecord(key, RejectionKind.UNDECODABLE, rule, detail, null, null, null,
                source.topic(), source.partition(), source.offset(),
                rawKey == null ? null : ByteBuffer.wrap(rawKey), rawValue == null ? null : ByteBuffer.wrap(rawValue));
    }

    static RejectedRecord keyMismatch(String key, String identity, Hash entryHash, Source source) {
        return new RejectedRecord(identity, RejectionKind.KEY_MISMATCH, "KEY_MISMATCH",
                "record key \"" + key + "\" is not the record's identity: it would be merged on the wrong partition",
                AvroRecords.hash32(entryHash), null, null, source.topic(), source.partition(), source.offset(), null, null);
    }

    static RejectedRecord invalidEntry(String identity, Entry entry, String rule, String detail, Source source) {
        return new RejectedRecord(identity, RejectionKind.INVALID_ENTRY, rule, detail,
                entry == null ? null : AvroRecords.hash32(entry.hash()), entry == null ? null : entry.deviceId(),
                entry == null ? null : Uint64.decimal(entry.sequence()), source.topic(), source.partition(), source.offset(), null, null);
    }

    static Compaction compaction(ArchiveOperation.Compact forgotten, RejectionKind heldAs, String detail) {
        Entry e = forgotten.entry();
        return new Compaction(CompactionCause.valueOf(forgotten.cause().name()), forgotten.identity(), e.deviceId(), Uint64.decimal(e.sequence()),
                AvroRecords.hash32(e.hash()), heldAs, detail);
    }
}
