package io.jolt.stream.protocol.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The follower that keeps only cursors (the Connect source task): given a provider's records,
 * following its pages passes on every eligible entry once, each with a position to resume from,
 * and a later pull is a delta.
 */
class CursorSessionTest {
    private final TestIdentity alice = TestIdentity.named("alice");
    private final List<Object> records = new ArrayList<>();
    private TestIdentity.Device a;
    private TestIdentity.Device b;

    private MergedState provider() {
        return alice.merge(records);
    }

    private void history(int perDevice) {
        records.add(alice.authorize("dev_a"));
        records.add(alice.authorize("dev_b"));
        a = alice.device("dev_a");
        b = alice.device("dev_b");
        for (int i = 0; i < perDevice; i++) {
            records.add(a.set("/p/" + (i % 3), "a" + i));
            records.add(b.append("/log", "b" + i));
        }
    }

    /** What a follower passed on, in order. */
    private record Passed(List<AuthorityRecord> authority, List<Entry> entries, List<SyncPosition> positions) {
        Passed() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }

        MergedState merged(String identity) {
            return IdentityAssembler.assemble(identity, authority, entries.stream().map(e -> (EntryInput) new EntryInput.Signed(e)).toList(), SignatureCheck.DEFINITION);
        }
    }

    /** Follows pages until none is left, as the task does; returns the pages asked. */
    private static int pull(CursorSession session, MergedState provider, SyncResponder.Limits limits, Passed into) {
        int pages = 0;
        boolean more = true;
        while (more) {
            SyncResponse response = SyncResponse.decode(SyncResponder.respond(provider, session.nextRequest(), limits).encode());
            pages++;
            CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) session.accept(response);
            for (CursorSession.Passed p : applied.passed()) {
                if (p instanceof CursorSession.Passed.Authority auth) {
                    into.authority().add(auth.record());
                } else {
                    into.entries().add(((CursorSession.Passed.Entry) p).entry());
                }
                into.positions().add(p.after());
            }
            more = applied.more();
        }
        return pages;
    }

    @Test
    void followingPagesPassesEveryEntryOnceAndALaterPullIsADelta() {
        history(20);
        CursorSession session = new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION);
        Passed passed = new Passed();
        assertThat(pull(session, provider(), new SyncResponder.Limits(7, 1 << 20), passed)).isEqualTo(6); // 40 entries, 7 a page
        assertThat(passed.entries()).hasSize(40).doesNotHaveDuplicates();
        assertThat(passed.authority()).hasSize(2);
        assertThat(MergedStateJson.write(passed.merged(alice.id()))).isEqualTo(MergedStateJson.write(provider()));

        Entry fresh = a.set("/p/new", "fresh");
        records.add(fresh);
        Passed delta = new Passed();
        assertThat(pull(session, provider(), SyncResponder.Limits.DEFAULT, delta)).isEqualTo(1);
        assertThat(delta.entries()).containsExactly(fresh);
        assertThat(delta.authority()).as("an unchanged authority chain is not passed on again").isEmpty();
    }

    @Test
    void resumingFromTheLastPassedRecordsPositionPassesOnlyWhatFollowsIt() {
        history(10);
        Passed first = new Passed();
        pull(new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION), provider(), new SyncResponder.Limits(3, 1 << 20), first);
        for (int cut = 0; cut < first.positions().size(); cut++) {
            Passed resumed = new Passed();
            pull(new CursorSession(alice.id(), first.positions().get(cut), SignatureCheck.DEFINITION), provider(), new SyncResponder.Limits(3, 1 << 20), resumed);
            List<Entry> all = new ArrayList<>(first.entries().subList(0, Math.max(0, cut + 1 - first.authority().size())));
            all.addAll(resumed.entries());
            assertThat(all).as("a crash after record %d: nothing lost, nothing twice", cut).hasSize(20).doesNotHaveDuplicates();
            assertThat(first.authority().size() + resumed.authority().size()).isLessThanOrEqualTo(cut < first.authority().size() - 1 ? 4 : 2);
        }
    }

    @Test
    void aTamperedLogIsRejectedWholeAndItsDeviceIsAskedAgainFromWhereItWas() {
        history(5);
        SyncResponse honest = SyncResponder.respond(provider(), new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION).nextRequest(), SyncResponder.Limits.DEFAULT);
        List<List<Entry>> logs = new ArrayList<>();
        honest.deviceLogs().forEach(l -> logs.add(new ArrayList<>(l)));
        Entry victim = logs.get(0).get(2);
        byte[] signature = victim.signature();
        signature[5] ^= 1;
        logs.get(0).set(2, Entry.of(victim.body(), signature));
        CursorSession session = new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION);
        CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) session.accept(SyncResponse.decode(
                new SyncResponse(honest.requiredOperationVersion(), honest.syncVersion(), honest.heads(), honest.continuation(), honest.authority(), logs)
                        .encode()));
        assertThat(applied.rejected()).singleElement().satisfies(r -> {
            assertThat(r.deviceId()).isEqualTo("dev_a");
            assertThat(r.reason()).isEqualTo(SuppliedLog.Reason.BAD_SIGNATURE);
        });
        assertThat(applied.passed()).filteredOn(p -> p instanceof CursorSession.Passed.Entry)
                .allSatisfy(p -> assertThat(((CursorSession.Passed.Entry) p).entry().deviceId()).isEqualTo("dev_b")).hasSize(5);
        assertThat(session.position().cursor("dev_a")).isEmpty();
        assertThat(session.position().cursor("dev_b")).isPresent();
        assertThat(session.nextRequest().cursors()).extracting(Cursor::deviceId).containsExactly("dev_b");
    }

    @Test
    void aLogThatDoesNotContinueTheCursorIsRejected() {
        history(4);
        MergedState state = provider();
        Entry a1 = state.deviceLogs().get(0).eligible().get(1);
        CursorSession session = new CursorSession(alice.id(), new SyncPosition(List.of(Cursor.of(a1)), null, List.of()), SignatureCheck.DEFINITION);
        // the provider answers for a cursor one further on: its log starts after an entry this follower never verified
        SyncResponse skipped = SyncResponder.respond(state, new SyncRequest(alice.id(), 3, 2,
                List.of(Cursor.of(state.deviceLogs().get(0).eligible().get(2))), List.of(), List.of()), SyncResponder.Limits.DEFAULT);
        CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) session.accept(skipped);
        assertThat(applied.rejected()).extracting(SuppliedLog.Rejection::reason).containsExactly(SuppliedLog.Reason.DISCONTINUOUS);
        assertThat(session.position().cursor("dev_a")).contains(Cursor.of(a1));
    }

    @Test
    void aCompleteResponseReplacesTheCursorsWithItsOwn() {
        history(3);
        Entry a1 = provider().deviceLogs().get(0).eligible().get(1);
        CursorSession session = new CursorSession(alice.id(),
                new SyncPosition(List.of(Cursor.of(a1), new Cursor("dev_gone", 4, a1.hash())), null, List.of()), SignatureCheck.DEFINITION);
        SyncResponse complete = SyncResponder.respond(provider(), session.nextRequest(), SyncResponder.Limits.DEFAULT);
        assertThat(complete.syncVersion()).as("an unknown device's cursor falls back").isEqualTo(1);
        CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) session.accept(complete);
        assertThat(applied.complete()).isTrue();
        assertThat(applied.more()).isFalse();
        assertThat(session.position().cursors()).extracting(Cursor::deviceId).containsExactly("dev_a", "dev_b");
    }

    @Test
    void aForgottenFloorIsAskedFromAndStaysInThePosition() {
        history(3);
        Entry a1 = provider().deviceLogs().get(0).eligible().get(1);
        CursorSession session = new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION);
        session.forgotten("dev_a", new CompactedHistory.Floor(a1.sequence(), a1.hash()));
        assertThat(session.nextRequest().cursors()).containsExactly(Cursor.of(a1));
        SyncResponse fromFloor = SyncResponder.respond(provider(), session.nextRequest(), SyncResponder.Limits.DEFAULT);
        CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) session.accept(fromFloor);
        assertThat(applied.rejected()).isEmpty();
        assertThat(applied.passed()).filteredOn(p -> p instanceof CursorSession.Passed.Entry).hasSize(1 + 3);
        assertThat(session.position().floors()).containsExactly(Cursor.of(a1));
    }

    @Test
    void aHistoryAboveTheLevelIsRefusedAndNothingMoves() {
        CursorSession session = new CursorSession(alice.id(), SyncPosition.START, SignatureCheck.DEFINITION);
        int above = SyncResponder.KNOWN_OPERATION_LEVEL + 1;
        SyncResponse refused = new SyncResponse(above, 2, List.of(), null, List.of(), List.of()); // what a newer provider refuses with
        assertThat(session.accept(SyncResponse.decode(refused.encode()))).isEqualTo(new CursorSession.Outcome.UnsupportedLevel(above));
        assertThat(session.position()).isEqualTo(SyncPosition.START);
    }
}
