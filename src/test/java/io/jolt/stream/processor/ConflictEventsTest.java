package io.jolt.stream.processor;

import io.jolt.stream.protocol.Uint64;
import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictHead;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.wire.AvroRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

/** jolt.conflicts.v2: given records, expect the conflict events an analyst reads (ConflictEvent version 2). */
class ConflictEventsTest {
    final TestIdentity alice = TestIdentity.named("alice");
    final AuthorityRecord authorizeA = alice.authorize("dev_a");
    final AuthorityRecord authorizeB = alice.authorize("dev_b");
    final TestIdentity.Device devA = alice.device("dev_a");
    final TestIdentity.Device devB = alice.device("dev_b");

    @Test
    void twoAuthorityRecordsAtOneSequenceAreAnAuthorityForkReportedOnce() {
        AuthorityRecord authorizeC = alice.authorize("dev_c"); // sequence 2: the longer branch
        alice.rewindAuthorityTo(authorizeA);
        AuthorityRecord rival = alice.authorize("dev_d"); // sequence 1, beside authorizeB

        List<ConflictEvent> events = topology().given(authorizeA, authorizeB, authorizeC, rival, rival).whenProcessed().conflicts();

        assertThat(events).singleElement().satisfies(fork -> {
            assertThat(fork.getKind()).isEqualTo(ConflictKind.AUTHORITY_FORK);
            assertThat(fork.getAuthoritySequence()).isEqualByComparingTo("1");
            assertThat(fork.getChosenRecord()).isEqualTo(AvroRecords.hash32(authorizeB.hash()));
            assertThat(fork.getEntryHashes()).containsExactlyElementsOf(
                    java.util.stream.Stream.of(authorizeB.hash(), rival.hash()).sorted().map(AvroRecords::hash32).toList());
        });
    }

    @Test
    void concurrentHeadsCarryTheWinnerAndEachLoserWithStateContentAndClock() {
        Entry b0 = devB.set("/profile", "from b");
        Entry a0 = devA.tombstone("/profile"); // later clock, but dev_a < dev_b: the loser

        List<ConflictEvent> events = topology().given(authorizeA, authorizeB, b0, a0).whenProcessed().conflicts();

        assertThat(events).hasSize(1);
        ConflictEvent event = events.get(0);
        assertThat(event.getKind()).isEqualTo(ConflictKind.CONCURRENT_HEADS);
        assertThat(event.getPath()).isEqualTo("/profile");
        assertThat(event.getWinnerHead()).isEqualTo(head(b0, PathState.PRESENT, TestIdentity.cid("from b")));
        assertThat(event.getLoserHeads()).containsExactly(head(a0, PathState.TOMBSTONED, null));
        assertThat(event.getEventTime().toEpochMilli()).as("the input record's timestamp").isPositive();
    }

    @Test
    void aConflictWhoseLoserHasTheLaterClockIsClockSensitive() {
        Entry b0 = devB.set("/p", "b");
        Entry a0 = devA.set("/p", "a"); // v1 would serve it: created_at first
        assertThat(topology().given(authorizeA, authorizeB, b0, a0).whenProcessed().conflicts()).singleElement()
                .satisfies(e -> assertThat(e.getClockSensitive()).isTrue());
    }

    @Test
    void aConflictWhoseWinnerHasTheLaterClockIsNot() {
        Entry a0 = devA.set("/p", "a");
        Entry b0 = devB.set("/p", "b"); // wins under §6 and under v1
        assertThat(topology().given(authorizeA, authorizeB, a0, b0).whenProcessed().conflicts()).singleElement()
                .satisfies(e -> assertThat(e.getClockSensitive()).isFalse());
    }

    @Test
    void anEquivocationNamesTheDeviceTheSequenceAndBothHashes() {
        TestIdentity.Device twin = devA.fork(); // the same key and writer state: both sign sequence 0
        Entry a0 = devA.set("/p", "a");
        Entry forked = twin.set("/p", "other");
        List<ConflictEvent> events = topology().given(authorizeA, a0, forked).whenProcessed().conflicts();
        assertThat(events).filteredOn(e -> e.getKind() == ConflictKind.EQUIVOCATION).singleElement().satisfies(e -> {
            assertThat(e.getDeviceId()).isEqualTo("dev_a");
            assertThat(e.getDeviceSequence()).isZero();
            assertThat(e.getEntryHashes()).hasSize(2);
            assertThat(e.getClockSensitive()).isFalse();
        });
    }

    private static ConflictHead head(Entry e, PathState state, String contentId) {
        return new ConflictHead(e.deviceId(), Uint64.decimal(e.sequence()), AvroRecords.hash32(e.hash()), state, contentId, Uint64.decimal(e.body().createdAt()));
    }
}
