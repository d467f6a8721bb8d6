package io.jolt.stream.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Verifies, assembles and merges everything received for one identity (PROTOCOL §3, §5, §6, §7).
 * The result depends only on the set of records: duplicates and order have no effect.
 */
public final class IdentityAssembler {
    private IdentityAssembler() {}

    public static MergedState assemble(String identity, Collection<AuthorityRecord> authorityRecords, Collection<EntryInput> inputs,
            SignatureCheck check) {
        return assemble(identity, authorityRecords, inputs, CompactedHistory.NONE, check);
    }

    /**
     * The same, for a provider that forgot part of the identity's superseded singleton history:
     * what remains merges as the whole did (see {@link CompactedHistory}).
     */
    public static MergedState assemble(String identity, Collection<AuthorityRecord> authorityRecords, Collection<EntryInput> inputs,
            CompactedHistory compacted, SignatureCheck check) {
        Authority authority = Authority.verify(identity, authorityRecords, check);
        Rows rows = new Rows();
        TreeSet<String> unknownDevices = new TreeSet<>(Utf8.ORDER);
        Map<String, Map<Hash, Entry>> verifiedByDevice = verify(classifiable(inputs, identity, rows), authority, compacted, check, rows, unknownDevices);

        List<DeviceLog> logs = new ArrayList<>();
        List<DeviceView> devices = new ArrayList<>();
        List<Equivocation> equivocations = new ArrayList<>();
        List<Entry> eligible = new ArrayList<>();
        for (DeviceAuthority device : authority.devices()) {
            DeviceLog log = DeviceLog.assemble(device, verifiedByDevice.getOrDefault(device.deviceId(), Map.of()).values(),
                    compacted.floor(device.deviceId()).orElse(null));
            logs.add(log);
            log.rejections().forEach(rows::add);
            equivocations.addAll(log.equivocations());
            eligible.addAll(log.eligible());
            DeviceView.Status status = device.isActive() ? DeviceView.Status.ACTIVE : DeviceView.Status.REVOKED;
            devices.add(new DeviceView(device.deviceId(), status, log.head().map(Head::of).orElse(null)));
        }
        unknownDevices.forEach(d -> devices.add(new DeviceView(d, DeviceView.Status.UNKNOWN, null)));
        devices.sort((a, b) -> Utf8.compare(a.deviceId(), b.deviceId()));

        return new MergedState(identity, Math.max(requiredLevel(eligible), compacted.level()), devices, singletons(eligible, compacted),
                appends(eligible), rows.sorted(), equivocations, authority, logs, compacted);
    }

    /**
     * The entries whose signature verifies under their device's key, by device and hash; the
     * others become rows (unknown device, bad signature), and forgotten history is skipped.
     */
    private static Map<String, Map<Hash, Entry>> verify(Collection<Entry> entries, Authority authority, CompactedHistory compacted,
            SignatureCheck check, Rows rows, Set<String> unknownDevices) {
        Map<String, Map<Hash, Entry>> verifiedByDevice = new TreeMap<>(Utf8.ORDER);
        for (Entry entry : entries) {
            if (compacted.forgets(entry)) {
                continue; // forgotten history received again: the archive holds it
            }
            Optional<DeviceAuthority> device = authority.device(entry.deviceId());
            if (device.isEmpty()) {
                rows.add(Rejection.of(entry, RejectionReason.UNKNOWN_DEVICE));
                unknownDevices.add(entry.deviceId());
            } else if (!entry.signatureVerifies(device.get().key(), check)) {
                rows.add(Rejection.of(entry, RejectionReason.BAD_SIGNATURE));
            } else {
                // The same body with two valid signatures is one entry; keep the lesser signature.
                verifiedByDevice.computeIfAbsent(entry.deviceId(), d -> new HashMap<>())
                        .merge(entry.hash(), entry, (a, b) -> a.compareSignature(b) <= 0 ? a : b);
            }
        }
        return verifiedByDevice;
    }

    /**
     * Applies the first classification rule (invalid_entry) and returns the distinct entries left,
     * each (hash, signature) once.
     */
    private static Collection<Entry> classifiable(Collection<EntryInput> inputs, String identity, Rows rows) {
        Map<Entry, Entry> distinct = new LinkedHashMap<>();
        for (EntryInput input : inputs) {
            if (input instanceof EntryInput.Unreadable u) {
                Rejection row = new Rejection(u.entryHash(), u.deviceId(), u.deviceSequence(), RejectionReason.INVALID_ENTRY, u.defect());
                rows.add(u.entryHash() != null ? u.entryHash() : u.source(), row);
            } else if (input instanceof EntryInput.Signed signed) {
                Entry entry = signed.entry();
                Optional<Defect> defect = signed.defect() != null
                        ? Optional.of(signed.defect())
                        : EntryRules.check(entry.body(), identity);
                if (defect.isPresent()) {
                    rows.add(new Rejection(entry.hash(), entry.deviceId(), entry.sequence(), RejectionReason.INVALID_ENTRY, defect.get()));
                } else {
                    distinct.putIfAbsent(entry, entry);
                }
            }
        }
        return distinct.values();
    }

    /**
     * The merge of entries already known to be eligible (an archive replay: the bolt holds what
     * was eligible when it was written). No authority is re-verified; devices are listed with the
     * greatest archived sequence as head and reported {@code active}.
     */
    public static MergedState fromEligible(String identity, Collection<Entry> eligible) {
        Map<Hash, Entry> distinct = new LinkedHashMap<>();
        eligible.forEach(e -> distinct.putIfAbsent(e.hash(), e));
        List<Entry> entries = new ArrayList<>(distinct.values());
        TreeMap<String, Entry> heads = new TreeMap<>(Utf8.ORDER);
        for (Entry e : entries) {
            heads.merge(e.deviceId(), e, (a, b) -> Long.compareUnsigned(a.sequence(), b.sequence()) >= 0 ? a : b);
        }
        List<DeviceView> devices = new ArrayList<>();
        heads.forEach((device, head) -> devices.add(new DeviceView(device, DeviceView.Status.ACTIVE, Head.of(head))));
        return new MergedState(identity, requiredLevel(entries), devices, singletons(entries, CompactedHistory.NONE), appends(entries),
                List.of(), List.of(), Authority.none(), List.of(), CompactedHistory.NONE);
    }

    /** At least 1; the greatest level of the eligible entries (PROTOCOL §7). */
    public static int requiredLevel(Collection<Entry> eligible) {
        int level = 1;
        for (Entry e : eligible) {
            level = Math.max(level, e.body().operationLevel());
        }
        return level;
    }

    private static List<SingletonState> singletons(List<Entry> eligible, CompactedHistory compacted) {
        Map<String, List<Entry>> byPath = new TreeMap<>(Utf8.ORDER);
        for (Entry e : eligible) {
            if (e.body().operation().isSingletonCandidate()) {
                byPath.computeIfAbsent(e.body().operation().path(), p -> new ArrayList<>()).add(e);
            }
        }
        List<SingletonState> out = new ArrayList<>();
        Map<String, java.util.Set<Hash>> forgottenSupersede = compacted.supersededByPath();
        byPath.forEach((path, candidates) -> SingletonMerge.merge(path, candidates, forgottenSupersede.getOrDefault(path, java.util.Set.of()))
                .ifPresent(out::add));
        return out;
    }

    private static List<AppendRecord> appends(List<Entry> eligible) {
        List<AppendRecord> out = new ArrayList<>();
        for (Entry e : eligible) {
            if (!e.body().operation().isSingletonCandidate()) {
                out.add(AppendRecord.of(e));
            }
        }
        out.sort(AppendRecord.ORDER);
        return out;
    }

    /**
     * Diagnostic rows: one per distinct record and reason. A record is known by its body hash, or,
     * when its body could not be read, by the hash of its raw bytes. Of two defects of one invalid
     * record the first declared is kept, so the row does not depend on arrival order.
     */
    private static final class Rows {
        private final Map<List<Object>, Rejection> byRecord = new HashMap<>();

        void add(Rejection row) {
            add(row.entryHash(), row);
        }

        void add(Hash record, Rejection row) {
            byRecord.merge(List.of(record, row.reason()), row, (a, b) -> a.defect() == null || b.defect() == null
                    || a.defect().compareTo(b.defect()) <= 0 ? a : b);
        }

        List<Rejection> sorted() {
            List<Rejection> out = new ArrayList<>(byRecord.values());
            out.sort(Rejection.ORDER.thenComparing(r -> r.defect() == null ? -1 : r.defect().ordinal()));
            return out;
        }
    }
}
