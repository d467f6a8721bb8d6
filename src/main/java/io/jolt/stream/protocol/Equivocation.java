package io.jolt.stream.protocol;

import java.util.List;

/** Evidence that a device signed two different verified entries at one sequence (PROTOCOL §5 step 4). */
public record Equivocation(String deviceId, long deviceSequence, List<Hash> entryHashes) {
    public Equivocation {
        entryHashes = List.copyOf(entryHashes);
    }
}
