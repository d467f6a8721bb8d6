package io.jolt.stream.protocol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The singleton merge of one path (PROTOCOL §6, RFC-0008 §8), whole ({@link #merge}) and one
 * entry at a time ({@link #extend}). Both apply the one supersede rule: a candidate is superseded
 * by a later candidate of its device on the path and by every candidate that observed it.
 */
public final class SingletonMerge {
    private static final Comparator<Entry> HEAD_ORDER = Comparator.comparing(Head::of, Head.ORDER);

    private SingletonMerge() {}

    /**
     * @param candidates the eligible singleton SetPath and TombstonePath entries of {@code path}
     * @return the path's state, or empty without candidates
     */
    public static Optional<SingletonState> merge(String path, Collection<Entry> candidates) {
        return merge(path, candidates, Set.of());
    }

    /** @param alsoSuperseded hashes superseded by candidates this provider forgot ({@link CompactedHistory}) */
    public static Optional<SingletonState> merge(String path, Collection<Entry> candidates, Set<Hash> alsoSuperseded) {
        Set<Hash> superseded = new HashSet<>(alsoSuperseded);
        Map<String, List<Entry>> byDevice = new HashMap<>();
        for (Entry candidate : candidates) {
            byDevice.computeIfAbsent(candidate.deviceId(), d -> new ArrayList<>()).add(candidate);
            // Heads of superseded candidates count too; hashes outside this path simply match nothing.
            superseded.addAll(candidate.body().observedHeads());
        }
        for (List<Entry> ofDevice : byDevice.values()) {
            ofDevice.sort(Comparator.comparing(Entry::sequence, Long::compareUnsigned));
            for (int i = 0; i + 1 < ofDevice.size(); i++) {
                superseded.add(ofDevice.get(i).hash());
            }
        }
        List<Entry> active = new ArrayList<>();
        for (Entry candidate : candidates) {
            if (!superseded.contains(candidate.hash())) {
                active.add(candidate);
            }
        }
        // Empty when forgotten history superseded every candidate left: a reorganization below a
        // floor (see CompactedHistory) that the retained history cannot answer.
        return resolve(path, active);
    }

    /** The state of a path from its active heads (at most one per device, none superseding another). */
    public static Optional<SingletonState> resolve(String path, Collection<Entry> activeHeads) {
        if (activeHeads.isEmpty()) {
            return Optional.empty();
        }
        List<Entry> active = new ArrayList<>(activeHeads);
        active.sort(HEAD_ORDER);
        Entry current = active.remove(active.size() - 1);
        return Optional.of(new SingletonState(path, current, active));
    }

    /**
     * The path's active heads after one more eligible candidate, {@code next}, the successor of
     * its device's eligible head: it supersedes its device's earlier head and every head it
     * observed; it is itself superseded, and so not a head, when an eligible candidate of the
     * path already observed it ({@code observed}).
     *
     * @param active the path's active heads before {@code next}
     * @param observed whether an eligible candidate of the path observed a hash
     * @return the active heads after {@code next}, and the hashes it observed that are absent from
     *     the heads before it: an entry arriving later under one of them is superseded already (an
     *     active head is stored, so it never arrives again and needs no such memory)
     */
    public static Extension extend(Collection<Entry> active, Entry next, Predicate<Hash> observed) {
        Set<Hash> observedByNext = new HashSet<>(next.body().observedHeads());
        List<Entry> heads = new ArrayList<>(active.size() + 1);
        Set<Hash> activeHashes = new HashSet<>();
        for (Entry head : active) {
            activeHashes.add(head.hash());
            if (!head.deviceId().equals(next.deviceId()) && !observedByNext.contains(head.hash())) {
                heads.add(head);
            }
        }
        if (!observed.test(next.hash())) {
            heads.add(next);
        }
        List<Hash> marks = new ArrayList<>();
        for (Hash h : next.body().observedHeads()) {
            if (!activeHashes.contains(h)) {
                marks.add(h);
            }
        }
        return new Extension(heads, marks);
    }

    /** The result of {@link #extend}. */
    public record Extension(List<Entry> active, List<Hash> observedAbsent) {
        public Extension {
            active = List.copyOf(active);
            observedAbsent = List.copyOf(observedAbsent);
        }
    }
}
