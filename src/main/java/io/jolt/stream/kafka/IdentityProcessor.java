package io.jolt.stream.kafka;

import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Defect;
import io.jolt.stream.protocol.DeviceAuthority;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryRules;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.RejectionReason;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Verifies, assembles and merges the records of the identities of one partition.
 *
 * <p>Hot path: the next entry of an active device, extending its eligible head with nothing
 * pending after it and no fork beside it, touches only its own path (or append key): its
 * singleton heads are merged incrementally. Anything else (a late Authorize, a revocation, a
 * fork, a predecessor arriving for pending entries, a fork switch) re-evaluates the identity from
 * its stored records with the protocol core and emits only the difference. Both produce exactly
 * what {@link IdentityAssembler} computes from the set of records received.
 *
 * <p>The live side forgets in three ways, each reported on {@code jolt.compactions.v1} and sent
 * to the bolt as a Compact (which it drops): entries held while not eligible beyond a bound,
 * entries that stop being eligible when their branch loses, and, when configured, superseded
 * singleton history past its retention (a sweep on wall-clock time; see {@link LiveForgetting}).
 */
final class IdentityProcessor implements Processor<String, byte[], Object, Object> {
    private final ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde;
    private final ConfluentAvroSerde<DeviceWriterEntry> entrySerde;
    private final LiveForgetting forgetting;

    private ProcessorContext<Object, Object> context;
    private KeyValueStore<Bytes, byte[]> authority;
    private KeyValueStore<Bytes, byte[]> entries;
    private KeyValueStore<Bytes, byte[]> identities;
    private KeyValueStore<Bytes, byte[]> heads;
    private KeyValueStore<Bytes, byte[]> observed;
    private KeyValueStore<Bytes, byte[]> appends;
    private KeyValueStore<Bytes, byte[]> eligible;
    private KeyValueStore<Bytes, byte[]> emitted;
    private LiveForgetter forgetter;
    private ProcessorMetrics metrics;

    IdentityProcessor(ConfluentAvroSerde<io.jolt.stream.avro.AuthorityRecord> authoritySerde, ConfluentAvroSerde<DeviceWriterEntry> entrySerde,
            LiveForgetting forgetting) {
        this.authoritySerde = authoritySerde;
        this.entrySerde = entrySerde;
        this.forgetting = forgetting;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        authority = context.getStateStore(Stores.AUTHORITY);
        entries = context.getStateStore(Stores.ENTRIES);
        identities = context.getStateStore(Stores.IDENTITIES);
        heads = context.getStateStore(Stores.HEADS);
        observed = context.getStateStore(Stores.OBSERVED);
        appends = context.getStateStore(Stores.APPENDS);
        eligible = context.getStateStore(Stores.ELIGIBLE);
        emitted = context.getStateStore(Stores.EMITTED);
        forgetter = new LiveForgetter(forgetting, this::forget, authority, entries, identities, eligible, emitted,
                context.getStateStore(Stores.HELD), context.getStateStore(Stores.COMPACTED));
        if (forgetting.forgetsSupersededHistory()) {
            context.schedule(forgetting.sweepInterval(), PunctuationType.WALL_CLOCK_TIME, forgetter::sweep);
        }
        metrics = new ProcessorMetrics(context.metrics(), context.taskId());
    }

    @Override
    public void close() {
        metrics.close();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        Source source = new Source(meta.topic(), meta.partition(), meta.offset());
        if (Topics.AUTHORITY.equals(source.topic())) {
            processAuthority(record, source);
        } else {
            processEntry(record, source);
        }
    }

    private void processAuthority(Record<String, byte[]> record, Source source) {
        AuthorityRecord parsed;
        try {
            io.jolt.stream.avro.AuthorityRecord avro = authoritySerde.deserialize(source.topic(), record.value());
            if (avro == null) {
                rejectUndecodable(record, source, "NULL_VALUE", "a record without a value");
                return;
            }
            parsed = AvroRecords.authority(avro);
        } catch (SerializationException | DecodeException | IllegalArgumentException e) {
            rejectUndecodable(record, source, ruleOf(e), e.getMessage());
            return;
        }
        String identity = parsed.body().identity();
        if (!identity.equals(record.key())) {
            forward(JoltTopology.REJECTED_SINK, identity, OutputRecords.keyMismatch(record.key(), identity, parsed.hash(), source), record);
            return;
        }
        Bytes key = Stores.authority(identity, parsed.hash(), parsed.signature());
        if (authority.get(key) != null) {
            return; // the same record again: nothing can change
        }
        authority.put(key, parsed.wire());
        reevaluate(identity, source, record);
    }

    private void processEntry(Record<String, byte[]> record, Source source) {
        Entry entry;
        try {
            DeviceWriterEntry avro = entrySerde.deserialize(source.topic(), record.value());
            if (avro == null) {
                rejectUndecodable(record, source, "NULL_VALUE", "a record without a value");
                return;
            }
            try {
                entry = AvroRecords.entry(avro);
            } catch (DecodeException | IllegalArgumentException e) {
                String identity = avro.getIdentity();
                forward(JoltTopology.REJECTED_SINK, identity,
                        OutputRecords.invalidEntry(identity, null, Defect.UNREADABLE_FIELD.name(), e.getMessage(), source), record);
                return;
            }
        } catch (SerializationException e) {
            rejectUndecodable(record, source, ruleOf(e), e.getMessage());
            return;
        }
        String identity = entry.body().identity();
        if (!identity.equals(record.key())) {
            forward(JoltTopology.REJECTED_SINK, identity, OutputRecords.keyMismatch(record.key(), identity, entry.hash(), source), record);
            return;
        }
        Optional<Defect> defect = EntryRules.check(entry.body(), identity);
        if (defect.isPresent()) {
            // Never eligible under any authority: reported, not stored.
            emitRejection(identity, new Rejection(entry.hash(), entry.deviceId(), entry.sequence(), RejectionReason.INVALID_ENTRY, defect.get()),
                    source, record);
            return;
        }
        Bytes key = Stores.entry(entry);
        if (entries.get(key) != null) {
            return; // identical entries count once
        }
        byte[] summaryBytes = identities.get(Stores.identity(identity));
        IdentitySummary summary = summaryBytes == null ? null : IdentitySummary.decode(summaryBytes);
        Optional<IdentitySummary.Device> device = summary == null ? Optional.empty() : summary.device(entry.deviceId());
        if (device.isPresent() && atOrBelowHead(device.get(), entry) && forgetter.compacted(identity).forgets(entry)) {
            return; // forgotten history received again (the archive holds it): ignored, as the core ignores it
        }
        if (device.isEmpty()) {
            // Kept in the entries store: a later Authorize re-evaluates the identity and admits it.
            entries.put(key, new StoredEntry(entry, source, false).encode());
            emitRejection(identity, Rejection.of(entry, RejectionReason.UNKNOWN_DEVICE), source, record);
            if (forgetter.holdOneMore(identity)) {
                reevaluate(identity, source, record); // counts exactly and drops down to the low-water mark
            }
            return;
        }
        Optional<PublicKey> deviceKey = PublicKey.parse(device.get().publicKey());
        if (deviceKey.isEmpty()) {
            entries.put(key, new StoredEntry(entry, source, false).encode());
            reevaluate(identity, source, record); // cannot happen for a verified authority; never skip verification
            return;
        }
        metrics.verified.record();
        if (!entry.signatureVerifies(deviceKey.get())) {
            entries.put(key, new StoredEntry(entry, source, false).encode());
            emitRejection(identity, Rejection.of(entry, RejectionReason.BAD_SIGNATURE), source, record);
            return;
        }
        boolean hot = extendsEligibleHead(identity, device.get(), entry);
        entries.put(key, new StoredEntry(entry, source, hot).encode());
        if (hot) {
            applyHotPath(identity, summary, entry, source, record);
        } else {
            reevaluate(identity, source, record);
        }
    }

    /** Only an entry at or below its device's eligible head can be forgotten history: the hot path never asks. */
    private static boolean atOrBelowHead(IdentitySummary.Device device, Entry entry) {
        return device.head() != null && Long.compareUnsigned(entry.sequence(), device.head().deviceSequence()) <= 0;
    }

    /**
     * Whether the verified entry, not stored yet, simply extends its active device's eligible
     * branch: it names the head, nothing of the device is stored at its sequence and nothing
     * waits after it.
     */
    private boolean extendsEligibleHead(String identity, IdentitySummary.Device device, Entry entry) {
        if (device.status() != DeviceAuthority.Status.ACTIVE) {
            return false;
        }
        Head head = device.head();
        if (head == null) {
            return entry.sequence() == 0 && StoreScans.count(entries, Stores.device(identity, entry.deviceId()), 1) == 0;
        }
        return entry.sequence() == head.deviceSequence() + 1 && entry.sequence() != 0
                && head.entryHash().equals(entry.body().previousEntryHash())
                && StoreScans.count(entries, Stores.deviceSequence(identity, entry.deviceId(), entry.sequence()), 1) == 0
                && StoreScans.count(entries, Stores.deviceSequence(identity, entry.deviceId(), entry.sequence() + 1), 1) == 0;
    }

    private void applyHotPath(String identity, IdentitySummary summary, Entry entry, Source source, Record<String, byte[]> record) {
        metrics.hotPath.record();
        identities.put(Stores.identity(identity), summary.advance(entry.deviceId(), Head.of(entry), entry.body().operationLevel()).encode());
        Operation operation = entry.body().operation();
        if (operation.isSingletonCandidate()) {
            String path = operation.path();
            Bytes pathKey = Stores.path(identity, path);
            List<Entry> active = Stores.decodeHeads(heads.get(pathKey));
            SingletonState before = SingletonMerge.merge(path, active).orElse(null);
            // The device's previous candidate on this path and every observed head are superseded.
            Set<Hash> superseded = new HashSet<>(entry.body().observedHeads());
            List<Entry> next = new ArrayList<>(active.size() + 1);
            Set<Hash> activeHashes = new HashSet<>();
            for (Entry head : active) {
                activeHashes.add(head.hash());
                if (!head.deviceId().equals(entry.deviceId()) && !superseded.contains(head.hash())) {
                    next.add(head);
                }
            }
            for (Hash h : entry.body().observedHeads()) {
                // A mark is read when the entry it names arrives on the hot path. An active head is stored already,
                // and a copy of a stored entry never takes the hot path: a mark for it would never be read.
                if (!activeHashes.contains(h)) {
                    observed.put(Stores.pathHash(identity, path, h), Stores.EMPTY);
                }
            }
            if (observed.get(Stores.pathHash(identity, path, entry.hash())) == null) {
                next.add(entry);
            }
            heads.put(pathKey, Stores.encodeHeads(next));
            SingletonState after = SingletonMerge.merge(path, next).orElse(null);
            emitIfChanged(identity, path, before, after, record);
        } else {
            appends.put(Stores.append(identity, entry), entry.wire());
        }
        emitArchive(identity, entry, source, record);
    }

    /** Recomputes the identity from every stored record and emits what changed. */
    private void reevaluate(String identity, Source trigger, Record<String, byte[]> record) {
        metrics.reevaluations.record();
        StoredIdentity stored = StoredIdentity.load(identity, authority, entries);
        Map<Hash, Source> sources = stored.sources();
        CompactedHistory forgotten = forgetter.compacted(identity);
        MergedState state = IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), forgotten);

        Map<String, SingletonState> before = activeStates(identity);
        Map<String, SingletonState> after = new TreeMap<>(Utf8.ORDER);
        state.singletons().forEach(s -> after.put(s.path(), s));

        StoreScans.deletePrefix(heads, Stores.identity(identity));
        StoreScans.deletePrefix(observed, Stores.identity(identity));
        StoreScans.deletePrefix(appends, Stores.identity(identity));
        for (CompactedHistory.Superseded s : forgotten.superseded()) {
            observed.put(Stores.pathHash(identity, s.path(), s.hash()), Stores.EMPTY);
        }
        List<IdentitySummary.Device> devices = new ArrayList<>();
        List<Entry> eligibleNow = new ArrayList<>();
        for (DeviceLog log : state.deviceLogs()) {
            DeviceAuthority d = log.authority();
            devices.add(new IdentitySummary.Device(d.deviceId(), d.key().bytes(), d.status(), d.cutoff(), log.head().map(Head::of).orElse(null)));
            for (Entry e : log.eligible()) {
                eligibleNow.add(e);
                Operation operation = e.body().operation();
                if (operation.isSingletonCandidate()) {
                    for (Hash h : e.body().observedHeads()) {
                        observed.put(Stores.pathHash(identity, operation.path(), h), Stores.EMPTY);
                    }
                } else {
                    appends.put(Stores.append(identity, e), e.wire());
                }
            }
        }
        for (SingletonState s : state.singletons()) {
            List<Entry> active = new ArrayList<>(s.conflicts());
            active.add(s.current());
            heads.put(Stores.path(identity, s.path()), Stores.encodeHeads(active));
        }
        if (state.authority().isEmpty()) {
            identities.delete(Stores.identity(identity));
        } else {
            identities.put(Stores.identity(identity), new IdentitySummary(state.requiredOperationLevel(), devices).encode());
        }

        Set<String> paths = new TreeSet<>(Utf8.ORDER);
        paths.addAll(before.keySet());
        paths.addAll(after.keySet());
        for (String path : paths) {
            emitIfChanged(identity, path, before.get(path), after.get(path), record);
        }
        reconcileArchive(identity, eligibleNow, stored, trigger, record);
        for (Rejection row : state.rejected()) {
            emitRejection(identity, row, sources.getOrDefault(row.entryHash(), trigger), record);
        }
        for (Equivocation evidence : state.equivocations()) {
            Bytes key = Stores.equivocation(identity, evidence.deviceId(), evidence.deviceSequence(), evidence.entryHashes().size());
            if (emitted.putIfAbsent(key, Stores.EMPTY) == null) {
                forward(JoltTopology.CONFLICTS_SINK, identity, OutputRecords.equivocation(identity, evidence), record);
            }
        }
        forgetter.boundHeld(identity, state, stored.byHash(), record);
    }

    /** The live side forgot an entry: a Compact for the bolt (which drops it) and a named report. */
    private void forget(ArchiveOperation.Compact compact, io.jolt.stream.avro.RejectionKind heldAs, String detail, Record<String, byte[]> record) {
        metrics.compacted(compact.cause());
        forward(JoltTopology.BOLT_FILTER, compact.identity(), compact, record);
        forward(JoltTopology.COMPACTIONS_SINK, compact.identity(), OutputRecords.compaction(compact, heldAs, detail), record);
    }

    /**
     * Insert/Remove for entries eligible for the first time, Compact for entries no longer
     * eligible. An entry eligible again after a fork switch is not archived twice: the archive
     * holds one operation per entry ever eligible.
     */
    private void reconcileArchive(String identity, List<Entry> eligibleNow, StoredIdentity stored, Source trigger, Record<String, byte[]> record) {
        // Every entry ever archived → whether it counts as eligible now; in key order, so Compacts come out in a stable order.
        Map<Bytes, Boolean> archived = new TreeMap<>();
        stored.archivedOnArrival().forEach(key -> archived.put(key, true));
        StoreScans.forEach(eligible, Stores.identity(identity), (key, marker) -> archived.put(key, Stores.isEligibleNow(marker)));
        for (Entry e : eligibleNow) {
            Bytes key = Stores.entryHash(identity, e);
            Boolean wasEligible = archived.remove(key);
            if (wasEligible == null) {
                eligible.put(key, Stores.EMPTY);
                emitArchive(identity, e, stored.sources().getOrDefault(e.hash(), trigger), record);
            } else if (!wasEligible) {
                eligible.put(key, Stores.EMPTY);
            }
        }
        archived.forEach((key, wasEligible) -> {
            if (wasEligible) {
                eligible.put(key, Stores.NO_LONGER_ELIGIBLE);
                Entry forgotten = findEntry(key);
                if (forgotten != null) {
                    forget(new ArchiveOperation.Compact(identity, forgotten, ArchiveOperation.Cause.FORK_SWITCH), null,
                            "no longer eligible: its branch lost, or a revocation cut it off", record);
                }
            }
        });
    }

    /** The stored entry an eligible key (identity, device, sequence, hash) names. */
    private Entry findEntry(Bytes eligibleKey) {
        Entry[] found = new Entry[1];
        StoreScans.forEach(entries, eligibleKey, (k, v) -> found[0] = StoredEntry.decode(v).entry());
        return found[0];
    }

    private void emitArchive(String identity, Entry entry, Source source, Record<String, byte[]> record) {
        ArchiveOperation op = entry.body().operation() instanceof Operation.TombstonePath
                ? new ArchiveOperation.Remove(identity, entry, source)
                : new ArchiveOperation.Insert(identity, entry, source);
        forward(JoltTopology.BOLT_FILTER, identity, op, record);
    }

    /**
     * The state topic gets a record when the resolution (state, content, head, conflict count)
     * changes; the conflicts topic when the set of losing active heads changes.
     */
    private void emitIfChanged(String identity, String path, SingletonState before, SingletonState after, Record<String, byte[]> record) {
        io.jolt.stream.avro.StateChange was = OutputRecords.stateChange(identity, path, before);
        io.jolt.stream.avro.StateChange now = OutputRecords.stateChange(identity, path, after);
        if (!was.equals(now)) {
            forward(JoltTopology.STATE_SINK, Stores.path(identity, path).get(), now, record);
        }
        if (after != null && !after.conflicts().isEmpty() && !conflictHashes(before).equals(conflictHashes(after))) {
            forward(JoltTopology.CONFLICTS_SINK, identity, OutputRecords.concurrentHeads(identity, after), record);
        }
    }

    private static List<Hash> conflictHashes(SingletonState state) {
        return state == null ? List.of() : state.conflicts().stream().map(Entry::hash).toList();
    }

    private void emitRejection(String identity, Rejection row, Source source, Record<String, byte[]> record) {
        if (emitted.putIfAbsent(Stores.rejection(identity, row.entryHash(), row.reason()), Stores.EMPTY) == null) {
            forward(JoltTopology.REJECTED_SINK, identity, OutputRecords.rejected(identity, row, source), record);
        }
    }

    private void rejectUndecodable(Record<String, byte[]> record, Source source, String rule, String detail) {
        byte[] rawKey = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        forward(JoltTopology.REJECTED_SINK, record.key(),
                OutputRecords.undecodable(record.key(), rule, Objects.toString(detail, rule), source, rawKey, record.value()), record);
    }

    private static String ruleOf(Exception e) {
        if (e instanceof ConfluentAvroSerde.WireFormatException w) {
            return w.kind().name();
        }
        if (e instanceof DecodeException d) {
            return d.kind().name();
        }
        return e.getClass().getSimpleName();
    }

    private void forward(String child, Object key, Object value, Record<String, byte[]> cause) {
        if (value instanceof io.jolt.stream.avro.RejectedRecord rejected) {
            metrics.rejected(rejected.getReason());
        } else if (JoltTopology.CONFLICTS_SINK.equals(child)) {
            metrics.conflicts.record();
        }
        context.forward(new Record<>(key, value, cause.timestamp()), child);
    }

    private Map<String, SingletonState> activeStates(String identity) {
        Map<String, List<Entry>> byPath = new TreeMap<>(Utf8.ORDER);
        StoreScans.forEach(heads, Stores.identity(identity), (k, v) -> {
            List<Entry> active = Stores.decodeHeads(v);
            if (!active.isEmpty()) {
                byPath.put(active.get(0).body().operation().path(), active);
            }
        });
        Map<String, SingletonState> out = new TreeMap<>(Utf8.ORDER);
        byPath.forEach((path, active) -> SingletonMerge.merge(path, active).ifPresent(s -> out.put(path, s)));
        return out;
    }
}
