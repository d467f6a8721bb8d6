package io.jolt.stream.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a provider forgot of an identity's superseded singleton history (PROTOCOL §10, Compact
 * "retention"), and the little it keeps instead so that what remains merges exactly as before.
 *
 * <p>Only a prefix of an active device's eligible branch is ever forgotten, and only entries
 * that are singleton candidates superseded by a later candidate of the same device on the same
 * path (so never an active head, never an append record) and written before a retention
 * threshold. Kept instead, per device, the {@link Floor}: the sequence and hash of the last
 * forgotten entry, from which the retained branch links; and for the identity the
 * {@link Superseded} hashes the forgotten entries observed (their supersession still counts)
 * and the greatest operation level they had. A record at or below a floor is forgotten history:
 * received again, it is ignored (the bolt keeps it).
 *
 * <p>Forgetting is a bet that nothing will reorganize what is older than the retention: a
 * revocation whose cutoff falls below a floor, or a branch forking below it and growing longer,
 * can no longer be applied as PROTOCOL §5 would apply it to the whole history. Hence retention is
 * off unless configured, and the archive answers for the whole history.
 */
public record CompactedHistory(Map<String, Floor> floors, Set<Superseded> superseded, int level) {
    public static final CompactedHistory NONE = new CompactedHistory(Map.of(), Set.of(), 0);

    /** A device's branch is forgotten up to and including {@code sequence}, which ended in {@code hash}. */
    public record Floor(long sequence, Hash hash) {}

    /** A candidate of {@code path} a forgotten entry observed: still superseded. */
    public record Superseded(String path, Hash hash) implements Comparable<Superseded> {
        @Override
        public int compareTo(Superseded o) {
            int c = Utf8.compare(path, o.path);
            return c != 0 ? c : hash.compareTo(o.hash);
        }
    }

    public CompactedHistory {
        floors = Map.copyOf(floors);
        superseded = Set.copyOf(superseded);
    }

    public Optional<Floor> floor(String deviceId) {
        return Optional.ofNullable(floors.get(deviceId));
    }

    /** Whether an entry is forgotten history: at or below its device's floor. */
    public boolean forgets(Entry entry) {
        Floor f = floors.get(entry.deviceId());
        return f != null && Long.compareUnsigned(entry.sequence(), f.sequence()) <= 0;
    }

    /** The superseded hashes, by path. */
    Map<String, Set<Hash>> supersededByPath() {
        Map<String, Set<Hash>> out = new HashMap<>();
        superseded.forEach(s -> out.computeIfAbsent(s.path(), p -> new java.util.HashSet<>()).add(s.hash()));
        return out;
    }

    /** What forgetting more of a merged state would keep, and the entries it forgets. */
    public record Plan(CompactedHistory next, List<Entry> forgotten) {}

    /**
     * The longest prefix of every active device's eligible branch that may be forgotten: singleton
     * candidates superseded by a later candidate of the same device on the same path, created
     * before {@code createdBefore} (unsigned). Stops at the first entry that is not.
     */
    public Plan plan(MergedState state, long createdBefore) {
        Map<String, Floor> nextFloors = new HashMap<>(floors);
        Set<Superseded> nextSuperseded = new TreeSet<>(superseded);
        int nextLevel = level;
        List<Entry> forgotten = new ArrayList<>();
        for (DeviceLog log : state.deviceLogs()) {
            if (!log.authority().isActive()) {
                continue;
            }
            List<Entry> branch = log.eligible();
            Map<String, Integer> lastOnPath = new HashMap<>();
            for (int i = 0; i < branch.size(); i++) {
                Operation op = branch.get(i).body().operation();
                if (op.isSingletonCandidate()) {
                    lastOnPath.put(op.path(), i);
                }
            }
            int k = 0;
            while (k < branch.size() && forgettable(branch.get(k), k, lastOnPath, createdBefore)) {
                k++;
            }
            if (k == 0) {
                continue;
            }
            for (Entry e : branch.subList(0, k)) {
                forgotten.add(e);
                String path = e.body().operation().path();
                e.body().observedHeads().forEach(h -> nextSuperseded.add(new Superseded(path, h)));
                nextLevel = Math.max(nextLevel, e.body().operationLevel());
            }
            Entry last = branch.get(k - 1);
            nextFloors.put(log.authority().deviceId(), new Floor(last.sequence(), last.hash()));
        }
        // A forgotten entry needs no superseding any more: received again, it is below its floor.
        for (Entry e : forgotten) {
            nextSuperseded.remove(new Superseded(e.body().operation().path(), e.hash()));
        }
        forgotten.sort(Comparator.comparing(Entry::deviceId, Utf8.ORDER).thenComparing(Entry::sequence, Long::compareUnsigned));
        return new Plan(new CompactedHistory(nextFloors, nextSuperseded, nextLevel), forgotten);
    }

    private static boolean forgettable(Entry e, int index, Map<String, Integer> lastOnPath, long createdBefore) {
        Operation op = e.body().operation();
        return op.isSingletonCandidate()
                && lastOnPath.get(op.path()) > index
                && Long.compareUnsigned(e.body().createdAt(), createdBefore) < 0;
    }

    /** Canonical bytes, for a store. */
    public byte[] encode() {
        CanonicalWriter out = new CanonicalWriter().uint16(level).uint64(floors.size());
        Map<String, Floor> byDevice = new TreeMap<>(Utf8.ORDER);
        byDevice.putAll(floors);
        byDevice.forEach((device, f) -> out.string(device).uint64(f.sequence()).raw(f.hash()));
        out.uint64(superseded.size());
        new TreeSet<>(superseded).forEach(s -> out.string(s.path()).raw(s.hash()));
        return out.toByteArray();
    }

    public static CompactedHistory decode(byte[] bytes) {
        if (bytes == null) {
            return NONE;
        }
        CanonicalReader in = new CanonicalReader(bytes);
        int level = in.uint16();
        int floorCount = in.count(8 + 8 + Hash.LENGTH);
        Map<String, Floor> floors = new HashMap<>();
        for (int i = 0; i < floorCount; i++) {
            floors.put(in.string(), new Floor(in.uint64(), in.hash()));
        }
        int supersededCount = in.count(8 + Hash.LENGTH);
        Collection<Superseded> superseded = new ArrayList<>();
        for (int i = 0; i < supersededCount; i++) {
            superseded.add(new Superseded(in.string(), in.hash()));
        }
        in.end();
        return new CompactedHistory(floors, new java.util.HashSet<>(superseded), level);
    }
}
