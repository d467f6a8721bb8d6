package io.jolt.stream.protocol;

/**
 * The outcome of resolving one singleton path (PROTOCOL §6, RFC-0008 §12): tombstoned and missing
 * are distinct, and a non-canonical address is an error, not a lookup.
 */
public sealed interface Resolution {
    record Present(String path, String contentId, Head head, int conflictCount) implements Resolution {}

    record Tombstoned(String path, Head head, int conflictCount) implements Resolution {}

    record NotFound(String path) implements Resolution {}

    record NonCanonicalPath(String path) implements Resolution {}

    static Resolution of(String path, SingletonState state) {
        if (!JoltPath.isCanonical(path)) {
            return new NonCanonicalPath(path);
        }
        if (state == null) {
            return new NotFound(path);
        }
        return state.isTombstoned()
                ? new Tombstoned(path, state.head(), state.conflicts().size())
                : new Present(path, state.contentId(), state.head(), state.conflicts().size());
    }
}
