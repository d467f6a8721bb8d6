package io.jolt.stream.processor;

import java.math.BigDecimal;
import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bound on entries held while not eligible (PROTOCOL §5): beyond it the live side drops the
 * held entries farthest from a root, reports each one on jolt.compactions.v2, sends the bolt a
 * Compact it drops, and from then on behaves as if they had never been received.
 */
class HeldBoundTest {
    private static final ForgettingPolicy TEN = ForgettingPolicy.heldAtMost(10);

    private final TestIdentity alice = TestIdentity.named("held");
    private final AuthorityRecord authorizeA = alice.authorize("dev_a");
    private final List<Entry> unauthorized = new ArrayList<>();

    HeldBoundTest() {
        TestIdentity.Device b = alice.device("dev_b");
        for (int i = 0; i < 12; i++) {
            unauthorized.add(b.set("/notes/" + i, "note " + i));
        }
    }

    @Test
    void beyondTheBoundTheHeldEntriesFarthestFromARootAreDroppedAndReported() {
        List<Object> records = new ArrayList<>();
        records.add(authorizeA);
        records.addAll(unauthorized); // dev_b is not authorized yet: all twelve are held as unknown_device

        TopologyFixture.Outcome out = topology().withForgetting(TEN).given(records).whenProcessed();

        // The 11th held entry crosses the bound: the held set drops to 9 (sequences 0..8); the 12th makes 10, within it.
        assertThat(out.compactions()).extracting(c -> c.getDeviceSequence().longValueExact()).containsExactly(9L, 10L);
        for (Compaction c : out.compactions()) {
            assertThat(c.getCause()).isEqualTo(CompactionCause.HELD_BOUND);
            assertThat(c.getHeldAs()).isEqualTo(RejectionKind.UNKNOWN_DEVICE);
            assertThat(c.getIdentity()).isEqualTo(alice.id());
            assertThat(c.getDeviceId()).isEqualTo("dev_b");
            assertThat(c.getDetail()).contains("jolt.live.held.max=10");
        }
        assertThat(out.archive()).as("nothing was eligible, and a Compact never reaches the archive").isEmpty();
    }

    @Test
    void aLaterAuthorizeAdmitsWhatWasKeptAndTheStateIsTheMergeOfTheRecordsKept() {
        List<Object> records = new ArrayList<>();
        records.add(authorizeA);
        records.addAll(unauthorized);
        AuthorityRecord authorizeB = alice.authorize("dev_b");
        records.add(authorizeB);

        TopologyFixture.Outcome out = topology().withForgetting(TEN).given(records).whenProcessed();

        // Sequences 9 and 10 were dropped: 0..8 are admitted, 11 waits for its predecessor (pending).
        List<Object> kept = new ArrayList<>(List.of(authorizeA, authorizeB));
        kept.addAll(unauthorized.subList(0, 9));
        kept.add(unauthorized.get(11));
        assertThat(out.state()).isEqualTo(MergedTable.of(kept));
        assertThat(out.archive()).extracting(a -> a.getDeviceSequence().longValueExact()).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    }

    @Test
    void aDroppedEntryReceivedAgainIsTreatedAsNew() {
        List<Object> records = new ArrayList<>();
        records.add(authorizeA);
        records.addAll(unauthorized);
        records.add(alice.authorize("dev_b"));
        records.add(unauthorized.get(9));
        records.add(unauthorized.get(10));

        TopologyFixture.Outcome out = topology().withForgetting(TEN).given(records).whenProcessed();

        List<Object> all = new ArrayList<>(records);
        assertThat(out.state()).as("the whole history, as if nothing had been dropped").isEqualTo(MergedTable.of(all));
        assertThat(out.archive()).hasSize(12);
        assertThat(out.rejected()).filteredOn(r -> r.getReason() == RejectionKind.UNKNOWN_DEVICE && BigDecimal.valueOf(9).equals(r.getDeviceSequence()))
                .as("reported once when first held; received again after the Authorize it is admitted, not held").hasSize(1);
    }

    @Test
    void pendingEntriesAreHeldUnderTheSameBound() {
        List<Object> records = new ArrayList<>(List.of(authorizeA, alice.authorize("dev_b")));
        records.addAll(unauthorized.subList(1, 12)); // eleven entries waiting for sequence 0: pending
        records.add(unauthorized.get(0));

        TopologyFixture.Outcome out = topology().withForgetting(TEN).given(records).whenProcessed();

        assertThat(out.compactions()).extracting(c -> c.getDeviceSequence().longValueExact()).containsExactly(10L, 11L);
        assertThat(out.compactions()).extracting(Compaction::getHeldAs).containsOnly(RejectionKind.PENDING);
        assertThat(out.archive()).extracting(a -> a.getDeviceSequence().longValueExact()).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void withinTheBoundNothingIsDropped() {
        List<Object> records = new ArrayList<>();
        records.add(authorizeA);
        records.addAll(unauthorized);
        TopologyFixture.Outcome out = topology().withForgetting(ForgettingPolicy.heldAtMost(12)).given(records).whenProcessed();
        assertThat(out.compactions()).isEmpty();
    }
}
