package io.jolt.stream.protocol.json;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Utf8;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A §9 bundle being read: lines grouped by their raw identity string, merged per identity.
 * Lines that cannot be tied to an identity are counted and described, never fatal.
 */
public final class Bundle {
    /** A line that was skipped: its 1-based number and why. */
    public record SkippedLine(long lineNumber, String reason) {}

    private final Map<String, Group> groups = new TreeMap<>(Utf8.ORDER);
    private final List<SkippedLine> skipped = new ArrayList<>();
    private long lines;

    private static final class Group {
        final List<AuthorityRecord> authority = new ArrayList<>();
        final List<EntryInput> entries = new ArrayList<>();
    }

    /** Adds one line (without its line terminator). */
    public void add(byte[] line) {
        lines++;
        if (line.length == 0 || (line.length == 1 && line[0] == '\r')) {
            return; // blank lines carry nothing
        }
        RecordJson.Line read = RecordJson.read(line);
        if (read instanceof RecordJson.Skipped s) {
            skipped.add(new SkippedLine(lines, s.reason()));
        } else if (read instanceof RecordJson.AuthorityLine a) {
            Group group = groups.computeIfAbsent(a.identity(), i -> new Group());
            if (a.record() != null) {
                group.authority.add(a.record());
            }
        } else if (read instanceof RecordJson.EntryLine e) {
            groups.computeIfAbsent(e.identity(), i -> new Group()).entries.add(e.input());
        }
    }

    public List<SkippedLine> skipped() {
        return List.copyOf(skipped);
    }

    /** The merged state of every identity, sorted by identity in UTF-8 byte order. */
    public List<MergedState> merge(SignatureCheck check) {
        List<MergedState> out = new ArrayList<>(groups.size());
        groups.forEach((identity, group) -> out.add(IdentityAssembler.assemble(identity, group.authority, group.entries, check)));
        return out;
    }
}
