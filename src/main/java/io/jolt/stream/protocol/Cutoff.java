package io.jolt.stream.protocol;

/** Where a revoked device's history ends, pinned by hash: sequence and the entry hash at it (PROTOCOL §3). */
public record Cutoff(long deviceSequence, Hash entryHash) {
    public Cutoff {
        java.util.Objects.requireNonNull(entryHash, "entryHash");
    }
}
