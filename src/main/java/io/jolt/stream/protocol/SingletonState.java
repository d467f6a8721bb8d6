package io.jolt.stream.protocol;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The merged singleton state of one path: the current head and the other active heads
 * (conflicts, ascending by the head tuple).
 */
public record SingletonState(String path, Entry current, List<Entry> conflicts) {
    /**
     * RFC-0003's v1 order of heads: {@code created_at} first, then PROTOCOL §6's tuple. §6 never
     * lets the signer's wall clock pick a winner; v1 providers did (RFC-0003 §15 names it the
     * protocol's known weakness).
     */
    static final Comparator<Entry> V1_ORDER = Comparator.<Entry, Long>comparing(e -> e.body().createdAt(), Long::compareUnsigned)
            .thenComparing(Head::of, Head.ORDER);

    public SingletonState {
        conflicts = List.copyOf(conflicts);
    }

    public boolean isTombstoned() {
        return current.body().operation() instanceof Operation.TombstonePath;
    }

    /** The current content, or null when the current head is a Tombstone. */
    public String contentId() {
        return contentIdOf(current);
    }

    public Head head() {
        return Head.of(current);
    }

    /** The head RFC-0003's v1 rule would serve among the same active heads. */
    public Entry v1Winner() {
        return Stream.concat(Stream.of(current), conflicts.stream()).max(V1_ORDER).orElseThrow();
    }

    /**
     * Whether the v1 rule would serve another head than §6 does: a provider still on v1 disagrees
     * here, and a signer who sets its clock ahead could decide this path there.
     */
    public boolean clockSensitive() {
        return !v1Winner().hash().equals(current.hash());
    }

    public static String contentIdOf(Entry entry) {
        return entry.body().operation() instanceof Operation.SetPath set ? set.contentId() : null;
    }
}
