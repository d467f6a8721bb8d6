package io.jolt.stream.protocol;

import java.util.List;

/**
 * Two or more valid authority records of one identity at one authority sequence (PROTOCOL §3
 * step 3): the root key signed competing histories. {@code chosen} is the one on the chosen
 * chain (null when that chain is shorter); {@code recordHashes} are all of them, ascending.
 */
public record AuthorityFork(long authoritySequence, Hash chosen, List<Hash> recordHashes) {
    public AuthorityFork {
        recordHashes = List.copyOf(recordHashes);
    }
}
