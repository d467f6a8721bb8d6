package io.jolt.stream.protocol;

import java.util.List;

/**
 * The merged singleton state of one path: the current head and the other active heads
 * (conflicts, ascending by the head tuple).
 */
public record SingletonState(String path, Entry current, List<Entry> conflicts) {
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

    public static String contentIdOf(Entry entry) {
        return entry.body().operation() instanceof Operation.SetPath set ? set.contentId() : null;
    }
}
