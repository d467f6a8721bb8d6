package io.jolt.stream.analytics;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Top-N by events. Across instances the merge is exact because the aggregates are partitioned by
 * their key (dimension/value): each value is counted by exactly one instance, so every value of
 * the global top-N is in its own instance's top-N, and N candidates per instance are enough.
 * (Were a value's count split over instances, a top-N of top-Ns could miss it or undercount it.)
 */
public final class TopN {
    private TopN() {}

    /** The n values with the most events. */
    public static List<Ranked> of(Map<String, Tally> counts, int n) {
        return counts.entrySet().stream().map(e -> Ranked.of(e.getKey(), e.getValue())).sorted(Ranked.ORDER).limit(n).toList();
    }

    /** The global top-N from each instance's top-N over values no other instance counts. */
    public static List<Ranked> merge(Collection<List<Ranked>> perInstance, int n) {
        return perInstance.stream().flatMap(List::stream).sorted(Ranked.ORDER).limit(n).toList();
    }
}
