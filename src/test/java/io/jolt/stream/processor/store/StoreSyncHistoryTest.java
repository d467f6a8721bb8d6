package io.jolt.stream.processor.store;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.processor.TopologyFixture;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.sync.SyncHistory;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.VectorRecords;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the sync responder reads from the state stores is each device's eligible branch, exactly
 * as the core's merge of the same records has it: whether the hot path archived an entry on
 * arrival (a flag on the stored entry) or a re-evaluation marked it (the eligible store), and
 * whatever else is stored beside it (held entries, forks, forged copies).
 */
class StoreSyncHistoryTest {
    private static final int ALL = Integer.MAX_VALUE;

    static Stream<String> kinds() {
        return Vectors.kinds().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyVectorInFileOrderAndReversedSyncsTheBranchesTheCoreMerges(String kind) {
        List<VectorRecords> records = VectorRecords.of(kind, TopicSchemas.seededRegistry());
        assertSyncHistoryIsTheMerge(records);
        List<VectorRecords> reversed = new ArrayList<>(records);
        Collections.reverse(reversed);
        assertSyncHistoryIsTheMerge(reversed);
    }

    @Test
    void aForgedCopyOfAnEligibleEntryIsStoredButNeverServed() {
        TestIdentity alice = TestIdentity.named("forged-sync");
        TestIdentity.Device a = alice.device("dev_a");
        AuthorityRecord authorize = alice.authorize("dev_a");
        Entry e0 = a.set("/name", "Alice");
        Entry e1 = a.set("/name", "Alice B.");
        // The same body under a signature of zeros: it fails to verify, and its key sorts before the real copy's.
        Entry forged = Entry.decode(e1.bodyBytes(), new byte[64]);

        try (TopologyFixture.Running topology = topology().start()) {
            SyncHistory stored = topology.when(authorize, e0, forged, e1).stores().syncHistory(alice.id(), SignatureCheck.DEFINITION).orElseThrow();
            assertThat(stored.entries("dev_a", 0, ALL)).extracting(Entry::signature).containsExactly(e0.signature(), e1.signature());
            assertThat(stored.branches()).singleElement().satisfies(b -> assertThat(b.head().signature()).isEqualTo(e1.signature()));
        }
    }

    private static void assertSyncHistoryIsTheMerge(List<VectorRecords> records) {
        Map<String, List<Object>> byIdentity = new LinkedHashMap<>();
        for (VectorRecords r : records) {
            byIdentity.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.record());
        }
        try (TopologyFixture.Running topology = topology().start()) {
            topology.when(records);
            byIdentity.forEach((identity, own) -> assertSyncHistoryIsTheMerge(identity, topology.stores().syncHistory(identity, SignatureCheck.DEFINITION),
                    SyncHistory.of(merge(identity, own))));
        }
    }

    private static void assertSyncHistoryIsTheMerge(String identity, Optional<SyncHistory> stored, SyncHistory merged) {
        if (merged.branches().isEmpty()) {
            stored.ifPresent(s -> assertThat(s.branches()).as(identity).isEmpty());
            return;
        }
        assertThat(stored).as(identity).isPresent();
        assertThat(wires(stored.get().branches().stream().map(SyncHistory.Branch::head).toList()))
                .as(identity + " heads").isEqualTo(wires(merged.branches().stream().map(SyncHistory.Branch::head).toList()));
        for (SyncHistory.Branch branch : merged.branches()) {
            assertThat(wires(stored.get().entries(branch.deviceId(), 0, ALL))).as(identity + " " + branch.deviceId())
                    .isEqualTo(wires(merged.entries(branch.deviceId(), 0, ALL)));
            assertThat(wires(stored.get().entries(branch.deviceId(), 1, 2))).as(identity + " " + branch.deviceId() + " page from 1")
                    .isEqualTo(wires(merged.entries(branch.deviceId(), 1, 2)));
        }
    }

    private static io.jolt.stream.protocol.MergedState merge(String identity, List<Object> records) {
        List<AuthorityRecord> authority = new ArrayList<>();
        List<EntryInput> entries = new ArrayList<>();
        for (Object r : records) {
            if (r instanceof AuthorityRecord a) {
                authority.add(a);
            } else {
                entries.add(new EntryInput.Signed((Entry) r));
            }
        }
        return IdentityAssembler.assemble(identity, authority, entries, SignatureCheck.DEFINITION);
    }

    private static List<String> wires(List<Entry> entries) {
        return entries.stream().map(e -> io.jolt.stream.protocol.Hex.encode(e.wire())).toList();
    }
}
