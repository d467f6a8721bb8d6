package io.jolt.stream.protocol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One device's log assembled from the set of its verified entries (PROTOCOL §5 steps 3-4): the
 * eligible branch, and a reason for every verified entry that is not on it.
 */
public final class DeviceLog {
    /** Greatest first: longest branch, then the greater final entry hash. Writer clocks never choose. */
    private static final Comparator<Entry> BRANCH_END = Comparator
            .<Entry, Long>comparing(Entry::sequence, Long::compareUnsigned)
            .thenComparing(Entry::hash);

    private final DeviceAuthority authority;
    private final List<Entry> eligible;
    private final List<Rejection> rejections;
    private final List<Equivocation> equivocations;

    private DeviceLog(DeviceAuthority authority, List<Entry> eligible, List<Rejection> rejections, List<Equivocation> equivocations) {
        this.authority = authority;
        this.eligible = eligible;
        this.rejections = rejections;
        this.equivocations = equivocations;
    }

    /** @param verified entries of this device whose signatures verified under its key, one per hash */
    public static DeviceLog assemble(DeviceAuthority authority, Collection<Entry> verified) {
        return assemble(authority, verified, null);
    }

    /**
     * @param floor where a forgotten prefix of this device's branch ended ({@link CompactedHistory}),
     *     or null: entries at or below it are ignored, and the retained branch links from it
     */
    public static DeviceLog assemble(DeviceAuthority authority, Collection<Entry> verified, CompactedHistory.Floor floor) {
        Map<Hash, Entry> byHash = new HashMap<>();
        for (Entry e : verified) {
            if (floor == null || Long.compareUnsigned(e.sequence(), floor.sequence()) > 0) {
                byHash.putIfAbsent(e.hash(), e);
            }
        }
        List<Rejection> rejections = new ArrayList<>();
        List<Entry> eligible = List.of();
        Set<Hash> linked = linked(byHash, floor);

        if (authority.isActive()) {
            Optional<Entry> end = byHash.values().stream().filter(e -> linked.contains(e.hash())).max(BRANCH_END);
            eligible = end.map(e -> branchTo(e, byHash)).orElse(List.of());
            Set<Hash> onBranch = hashes(eligible);
            for (Entry e : byHash.values()) {
                if (!onBranch.contains(e.hash())) {
                    rejections.add(Rejection.of(e, linked.contains(e.hash()) ? RejectionReason.FORK_DISCARDED : RejectionReason.PENDING));
                }
            }
        } else if (authority.cutoff() == null) {
            byHash.values().forEach(e -> rejections.add(Rejection.of(e, RejectionReason.REVOKED_DEVICE)));
        } else {
            Cutoff cutoff = authority.cutoff();
            Entry pinned = byHash.get(cutoff.entryHash());
            boolean reached = pinned != null && pinned.sequence() == cutoff.deviceSequence() && linked.contains(pinned.hash());
            // A cutoff at or below a floor leaves nothing retained eligible: everything kept is above it.
            eligible = reached ? branchTo(pinned, byHash) : List.of();
            Set<Hash> onBranch = hashes(eligible);
            for (Entry e : byHash.values()) {
                if (Long.compareUnsigned(e.sequence(), cutoff.deviceSequence()) > 0) {
                    rejections.add(Rejection.of(e, RejectionReason.REVOKED_DEVICE));
                } else if (!onBranch.contains(e.hash())) {
                    // Below a reached cutoff nothing else can ever become eligible; until then all waits.
                    rejections.add(Rejection.of(e, reached ? RejectionReason.FORK_DISCARDED : RejectionReason.PENDING));
                }
            }
        }
        return new DeviceLog(authority, List.copyOf(eligible), List.copyOf(rejections), equivocations(authority.deviceId(), byHash.values()));
    }

    /**
     * Entries with a path to a root through verified entries, each at its parent's sequence + 1.
     * A root is a sequence-0 entry, or with a floor the entry right above it naming its hash.
     */
    private static Set<Hash> linked(Map<Hash, Entry> byHash, CompactedHistory.Floor floor) {
        Map<Hash, List<Entry>> children = new HashMap<>();
        Deque<Entry> work = new ArrayDeque<>();
        for (Entry e : byHash.values()) {
            boolean root = floor == null
                    ? e.sequence() == 0
                    : e.sequence() == floor.sequence() + 1 && floor.hash().equals(e.body().previousEntryHash());
            if (root) {
                work.push(e);
            } else {
                children.computeIfAbsent(e.body().previousEntryHash(), h -> new ArrayList<>()).add(e);
            }
        }
        Set<Hash> linked = new HashSet<>();
        while (!work.isEmpty()) {
            Entry e = work.pop();
            linked.add(e.hash());
            for (Entry child : children.getOrDefault(e.hash(), List.of())) {
                if (child.sequence() - 1 == e.sequence()) {
                    work.push(child);
                }
            }
        }
        return linked;
    }

    private static List<Entry> branchTo(Entry end, Map<Hash, Entry> byHash) {
        ArrayDeque<Entry> branch = new ArrayDeque<>();
        for (Entry e = end; e != null; e = e.sequence() == 0 ? null : byHash.get(e.body().previousEntryHash())) {
            branch.addFirst(e);
        }
        return new ArrayList<>(branch);
    }

    private static Set<Hash> hashes(List<Entry> entries) {
        Set<Hash> out = new HashSet<>();
        entries.forEach(e -> out.add(e.hash()));
        return out;
    }

    private static List<Equivocation> equivocations(String deviceId, Collection<Entry> entries) {
        TreeMap<Long, List<Hash>> bySequence = new TreeMap<>(Long::compareUnsigned);
        entries.forEach(e -> bySequence.computeIfAbsent(e.sequence(), s -> new ArrayList<>()).add(e.hash()));
        List<Equivocation> out = new ArrayList<>();
        bySequence.forEach((sequence, hashes) -> {
            if (hashes.size() > 1) {
                hashes.sort(Comparator.naturalOrder());
                out.add(new Equivocation(deviceId, sequence, hashes));
            }
        });
        return List.copyOf(out);
    }

    public DeviceAuthority authority() {
        return authority;
    }

    /** The eligible branch from sequence 0 (or from above the device's floor), in sequence order. */
    public List<Entry> eligible() {
        return eligible;
    }

    public Optional<Entry> head() {
        return eligible.isEmpty() ? Optional.empty() : Optional.of(eligible.get(eligible.size() - 1));
    }

    public List<Rejection> rejections() {
        return rejections;
    }

    public List<Equivocation> equivocations() {
        return equivocations;
    }
}
