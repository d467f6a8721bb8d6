package io.jolt.stream.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.HistoryForgottenException;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.protocol.sync.SyncResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Forgetting superseded singleton history past a retention, as a specification. */
class CompactionTest {
    private final TestIdentity alice = TestIdentity.named("compaction");
    private final AuthorityRecord authorizeA = alice.authorize("dev_a");
    private final TestIdentity.Device a = alice.device("dev_a");

    // created_at 1, 2, 3, 4: /p written twice, /q once, /p again.
    private final Entry p1 = a.writeAt(1, set("/p", "v1"));
    private final Entry p2 = a.writeAt(2, set("/p", "v2"));
    private final Entry q1 = a.writeAt(3, set("/q", "q1"));
    private final Entry p3 = a.writeAt(4, set("/p", "v3"));

    @Test
    void theSupersededPrefixOlderThanTheRetentionIsForgottenUpToTheFirstEntryThatIsNot() {
        MergedState whole = merge(List.of(p1, p2, q1, p3), CompactedHistory.NONE);

        CompactedHistory.Plan plan = CompactedHistory.NONE.plan(whole, 3);

        // p1 and p2 are superseded by dev_a's later /p and older than 3; q1 is /q's only value: the floor stops there.
        assertThat(plan.forgotten()).containsExactly(p1, p2);
        assertThat(plan.next().floor("dev_a")).contains(new CompactedHistory.Floor(1, p2.hash()));
        assertThat(CompactedHistory.NONE.plan(whole, 2).forgotten()).as("p2 is not older than 2").containsExactly(p1);
    }

    @Test
    void entriesWrittenAfterForgettingMergeAsWithTheWholeHistory() {
        CompactedHistory compacted = CompactedHistory.NONE.plan(merge(List.of(p1, p2, q1, p3), CompactedHistory.NONE), 3).next();
        Entry p4 = a.writeAt(5, set("/p", "v4"));
        Entry tombstoneQ = a.writeAt(6, new Operation.TombstonePath("/q"));

        MergedState forgetful = merge(List.of(q1, p3, p4, tombstoneQ), compacted);
        MergedState whole = merge(List.of(p1, p2, q1, p3, p4, tombstoneQ), CompactedHistory.NONE);

        assertThat(forgetful.singletons()).isEqualTo(whole.singletons());
        assertThat(forgetful.devices()).isEqualTo(whole.devices());
        assertThat(forgetful.requiredOperationLevel()).isEqualTo(whole.requiredOperationLevel());
    }

    @Test
    void aForgottenEntryReceivedAgainIsIgnored() {
        CompactedHistory compacted = CompactedHistory.NONE.plan(merge(List.of(p1, p2, q1, p3), CompactedHistory.NONE), 3).next();
        MergedState withoutThem = merge(List.of(q1, p3), compacted);
        MergedState withThemAgain = merge(List.of(p1, p2, q1, p3), compacted);
        assertThat(withThemAgain).usingRecursiveComparison().isEqualTo(withoutThem);
    }

    @Test
    void theSupersessionByAForgottenEntrysObservedHeadsSurvivesIt() {
        TestIdentity carol = TestIdentity.named("observer");
        AuthorityRecord authorizeA = carol.authorize("dev_a");
        AuthorityRecord authorizeB = carol.authorize("dev_b");
        TestIdentity.Device a = carol.device("dev_a");
        Entry bp = carol.device("dev_b").writeAt(1, set("/p", "from b"));
        Entry ap1 = a.writeAt(2, new Operation.SetPath("/p", TestIdentity.cid("a over b"), Operation.Mode.SINGLETON), bp.hash());
        Entry ap2 = a.writeAt(3, set("/p", "a again"));
        List<Object> records = List.of(authorizeA, authorizeB, bp, ap1, ap2);
        MergedState whole = IdentityAssembler.assemble(carol.id(), authority(records), inputs(records), SignatureCheck.DEFINITION);

        CompactedHistory.Plan plan = CompactedHistory.NONE.plan(whole, 10);
        assertThat(plan.forgotten()).containsExactly(ap1);
        List<Object> kept = List.of(authorizeA, authorizeB, bp, ap2);
        MergedState forgetful = IdentityAssembler.assemble(carol.id(), authority(kept), inputs(kept), plan.next(), SignatureCheck.DEFINITION);

        assertThat(forgetful.singletons()).as("b's value stays superseded by the forgotten entry that observed it")
                .isEqualTo(whole.singletons());
        assertThat(forgetful.singletons().get(0).conflicts()).isEmpty();
    }

    @Test
    void syncAnswersFromTheFloorUpAndRefusesWhatItForgot() {
        CompactedHistory compacted = CompactedHistory.NONE.plan(merge(List.of(p1, p2, q1, p3), CompactedHistory.NONE), 3).next();
        MergedState forgetful = merge(List.of(q1, p3), compacted);

        SyncResponse page = SyncResponder.respond(forgetful, request(List.of(new Cursor("dev_a", 1, p2.hash()))), SyncResponder.Limits.DEFAULT);
        assertThat(page.deviceLogs()).containsExactly(List.of(q1, p3));

        assertThatThrownBy(() -> SyncResponder.respond(forgetful, request(List.of()), SyncResponder.Limits.DEFAULT))
                .isInstanceOf(HistoryForgottenException.class).hasMessageContaining("dev_a").hasMessageContaining("sequence 1");
        assertThatThrownBy(() -> SyncResponder.respond(forgetful, request(List.of(Cursor.of(p1))), SyncResponder.Limits.DEFAULT))
                .isInstanceOf(HistoryForgottenException.class);
    }

    private SyncRequest request(List<Cursor> cursors) {
        return new SyncRequest(alice.id(), 3, 2, cursors, List.of(), List.of());
    }

    private static Operation set(String path, String content) {
        return new Operation.SetPath(path, TestIdentity.cid(content), Operation.Mode.SINGLETON);
    }

    private MergedState merge(List<Entry> entries, CompactedHistory compacted) {
        List<EntryInput> inputs = new ArrayList<>();
        entries.forEach(e -> inputs.add(new EntryInput.Signed(e)));
        return IdentityAssembler.assemble(alice.id(), List.of(authorizeA), inputs, compacted, SignatureCheck.DEFINITION);
    }

    private static List<AuthorityRecord> authority(List<Object> records) {
        return records.stream().filter(AuthorityRecord.class::isInstance).map(AuthorityRecord.class::cast).toList();
    }

    private static List<EntryInput> inputs(List<Object> records) {
        return records.stream().filter(Entry.class::isInstance).map(e -> (EntryInput) new EntryInput.Signed((Entry) e)).toList();
    }
}
