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

/** The singleton merge of one path (PROTOCOL §6, RFC-0008 §8). */
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
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
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
        if (active.isEmpty()) {
            // Only when forgotten history superseded every candidate left: a reorganization below a
            // floor (see CompactedHistory) that the retained history cannot answer.
            return Optional.empty();
        }
        active.sort(HEAD_ORDER);
        Entry current = active.remove(active.size() - 1);
        return Optional.of(new SingletonState(path, current, active));
    }
}
