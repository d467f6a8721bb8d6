package io.jolt.stream.protocol.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Requester and responder together: pages, continuations, deltas, refusals and rejected logs. */
class SyncSessionTest {
    final TestIdentity alice = TestIdentity.named("sync-alice");
    final List<Object> records = new ArrayList<>();
    TestIdentity.Device a;
    TestIdentity.Device b;

    MergedState provider() {
        return alice.merge(records);
    }

    void history(int perDevice) {
        records.add(alice.authorize("dev_a"));
        records.add(alice.authorize("dev_b"));
        a = alice.device("dev_a");
        b = alice.device("dev_b");
        for (int i = 0; i < perDevice; i++) {
            records.add(a.set("/p/" + (i % 3), "a" + i));
            records.add(b.append("/log", "b" + i));
        }
    }

    /** Runs the session against the provider until no continuation remains; returns the number of pages. */
    static int pull(SyncSession session, MergedState provider, SyncResponder.Limits limits) {
        int pages = 0;
        while (true) {
            SyncResponse response = SyncResponse.decode(SyncResponder.respond(provider, session.nextRequest(), limits).encode());
            pages++;
            SyncSession.Outcome outcome = session.accept(response);
            assertThat(outcome).isInstanceOf(SyncSession.Outcome.Applied.class);
            if (!((SyncSession.Outcome.Applied) outcome).more()) {
                return pages;
            }
        }
    }

    @Test
    void followingContinuationsConvergesToTheProvidersStateAndALaterPullIsADelta() {
        history(20);
        SyncSession session = new SyncSession(alice.id(), SignatureCheck.DEFINITION);
        int pages = pull(session, provider(), new SyncResponder.Limits(7, 1 << 20));
        assertThat(pages).isEqualTo(6); // 40 entries, 7 per page
        assertThat(MergedStateJson.write(session.merged())).isEqualTo(MergedStateJson.write(provider()));

        Entry fresh = a.set("/p/new", "fresh");
        records.add(fresh);
        SyncResponse delta = SyncResponder.respond(provider(), session.nextRequest(), SyncResponder.Limits.DEFAULT);
        assertThat(delta.syncVersion()).isEqualTo(2);
        assertThat(delta.deviceLogs()).singleElement().satisfies(log -> assertThat(log).containsExactly(fresh));
        session.accept(delta);
        assertThat(MergedStateJson.write(session.merged())).isEqualTo(MergedStateJson.write(provider()));
    }

    @Test
    void aSuppliedLogWithOneFlippedByteIsRejectedWhole() {
        history(5);
        SyncResponse honest = SyncResponder.respond(provider(), new SyncSession(alice.id(), SignatureCheck.DEFINITION).nextRequest(), SyncResponder.Limits.DEFAULT);
        List<List<Entry>> logs = new ArrayList<>();
        for (List<Entry> log : honest.deviceLogs()) {
            logs.add(new ArrayList<>(log));
        }
        Entry victim = logs.get(0).get(2);
        byte[] signature = victim.signature();
        signature[5] ^= 1;
        logs.get(0).set(2, Entry.of(victim.body(), signature));
        SyncResponse tampered = new SyncResponse(honest.requiredOperationVersion(), honest.syncVersion(), honest.heads(),
                honest.continuation(), honest.authority(), logs);
        SyncSession session = new SyncSession(alice.id(), SignatureCheck.DEFINITION);
        SyncSession.Outcome.Applied outcome = (SyncSession.Outcome.Applied) session.accept(SyncResponse.decode(tampered.encode()));
        assertThat(outcome.rejectedLogs()).singleElement().satisfies(r -> {
            assertThat(r.deviceId()).isEqualTo("dev_a");
            assertThat(r.reason()).isEqualTo(SuppliedLog.Reason.BAD_SIGNATURE);
            assertThat(r.detail()).contains("bad signature");
        });
        assertThat(session.entries()).noneMatch(e -> e.deviceId().equals("dev_a"));
        assertThat(session.entries()).hasSize(5);
    }

    @Test
    void aHistoryAboveTheRequestersLevelIsRefusedNotStripped() {
        history(2);
        assertThat(provider().requiredOperationLevel()).isEqualTo(1);
        records.add(a.tombstone("/p/0"));
        for (int level = 1; level <= 3; level++) {
            SyncRequest request = new SyncRequest(alice.id(), level, 2, List.of(), List.of(), List.of());
            SyncResponder.Answer answer = SyncResponder.answer(provider(), request, SyncResponder.Limits.DEFAULT);
            assertThat(answer.response().requiredOperationVersion()).isEqualTo(2);
            if (level < 2) {
                assertThat(answer.refused()).isTrue();
                assertThat(answer.response().deviceLogs()).isEmpty();
                assertThat(answer.response().authority()).isEmpty();
                assertThat(answer.response().heads()).isEmpty();
            } else {
                assertThat(answer.refused()).isFalse();
                assertThat(answer.response().deviceLogs()).isNotEmpty();
            }
        }
    }

    @Test
    void everyInvalidCursorKindFallsBackToTheCompleteResponse() {
        history(3);
        MergedState state = provider();
        Entry a1 = state.deviceLogs().get(0).eligible().get(1);
        record Case(SyncResponder.Fallback expected, List<Cursor> cursors) {}
        List<Case> cases = List.of(
                new Case(SyncResponder.Fallback.DUPLICATE_CURSOR, List.of(Cursor.of(a1), Cursor.of(a1))),
                new Case(SyncResponder.Fallback.UNKNOWN_DEVICE, List.of(new Cursor("dev_zz", 0, a1.hash()))),
                new Case(SyncResponder.Fallback.SEQUENCE_NOT_ON_BRANCH, List.of(new Cursor("dev_a", 9, a1.hash()))),
                new Case(SyncResponder.Fallback.HASH_MISMATCH, List.of(new Cursor("dev_a", 0, a1.hash()))));
        for (Case c : cases) {
            SyncResponder.Answer answer = SyncResponder.answer(state, new SyncRequest(alice.id(), 3, 2, c.cursors(), List.of(), List.of()),
                    SyncResponder.Limits.DEFAULT);
            assertThat(answer.fallback()).isEqualTo(c.expected());
            assertThat(answer.response().syncVersion()).isEqualTo(1);
            assertThat(answer.response().heads()).isEmpty();
            assertThat(answer.response().continuation()).isNull();
        }
    }

    @Test
    void headsNameEveryDeviceWhateverThePageHoldsAndTheFirstEntryTooLargeFallsBack() {
        history(4);
        MergedState state = provider();
        SyncResponse onePage = SyncResponder.respond(state, new SyncRequest(alice.id(), 3, 2, List.of(), List.of(), List.of()),
                new SyncResponder.Limits(1, 1 << 20));
        assertThat(onePage.deviceLogs()).singleElement().satisfies(log -> assertThat(log).hasSize(1));
        assertThat(onePage.heads()).extracting(Cursor::deviceId).containsExactly("dev_a", "dev_b");
        assertThat(onePage.continuation()).extracting(Cursor::deviceId).containsExactly("dev_a");
        SyncResponder.Answer tiny = SyncResponder.answer(state, new SyncRequest(alice.id(), 3, 2, List.of(), List.of(), List.of()),
                new SyncResponder.Limits(256, 100));
        assertThat(tiny.fallback()).isEqualTo(SyncResponder.Fallback.FIRST_ENTRY_TOO_LARGE);
        assertThat(tiny.response().syncVersion()).isEqualTo(1);
    }

    @Test
    void anUnknownIdentityGetsEmptyListsAtLevelOne() {
        SyncResponse response = SyncResponder.respond(null, new SyncRequest(alice.id(), 3, 5, List.of(), List.of(), List.of()),
                SyncResponder.Limits.DEFAULT);
        assertThat(response).isEqualTo(new SyncResponse(1, 2, List.of(), null, List.<AuthorityRecord>of(), List.of()));
    }
}
