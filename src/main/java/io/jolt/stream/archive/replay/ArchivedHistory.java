package io.jolt.stream.archive.replay;

import io.jolt.stream.archive.replay.ArchiveReplay.Archived;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One identity's archived operations in archive order, each once. The bolt is at-least-once (a
 * task that re-processes after a crash may append an operation again), so a reader removes
 * repeats by dot and entry hash and says how many it removed. The replay reader and the archive
 * service both answer through this class: the same rule, whoever reads.
 */
public record ArchivedHistory(String identity, List<Archived> operations, int duplicatesRemoved) {
    public ArchivedHistory {
        operations = List.copyOf(operations);
    }

    /** {@code archived}'s operations of {@code identity} (on {@code path} when not null), in archive order, each once. */
    public static ArchivedHistory of(String identity, List<Archived> archived, String path) {
        List<Archived> ordered = new ArrayList<>(archived);
        ordered.sort(Comparator.comparingInt(Archived::partition).thenComparingLong(Archived::offset));
        Set<String> seen = new HashSet<>();
        List<Archived> once = new ArrayList<>();
        int repeats = 0;
        for (Archived a : ordered) {
            if (!a.identity().equals(identity) || (path != null && !a.entry().body().operation().path().equals(path))) {
                continue;
            }
            if (seen.add(a.kind() + " " + a.entry().deviceId() + "#" + Long.toUnsignedString(a.entry().sequence()) + " " + a.entry().hash().hex())) {
                once.add(a);
            } else {
                repeats++;
            }
        }
        return new ArchivedHistory(identity, once, repeats);
    }

    /** The merged state of these operations, by the protocol core (every archived entry was eligible when it was written). */
    public MergedState state() {
        List<Entry> entries = operations.stream().map(Archived::entry).toList();
        return IdentityAssembler.fromEligible(identity, entries);
    }
}
