package io.jolt.stream.processor;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.processor.store.StoreName;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.TestIdentity;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Superseded singleton history past its retention: a sweep on wall-clock time forgets it, reports
 * it on jolt.compactions.v2, and the state stays exactly what the whole history gives.
 */
class SupersededRetentionTest {
    private static final ForgettingPolicy ONE_HOUR = ForgettingPolicy.DEFAULT.withSupersededRetention(Duration.ofHours(1), Duration.ofMinutes(1));

    private final TopologyFixture.Running topology = topology().withForgetting(ONE_HOUR).start();
    private final TestIdentity alice = TestIdentity.named("retention");
    private final AuthorityRecord authorizeA = alice.authorize("dev_a");
    private final TestIdentity.Device a = alice.device("dev_a");
    private final long now = System.currentTimeMillis();

    // Written long ago: /p twice, /q once, /p again.
    private final Entry p1 = a.writeAt(1, set("/p", "v1"));
    private final Entry p2 = a.writeAt(2, set("/p", "v2"));
    private final Entry q1 = a.writeAt(3, set("/q", "q1"));
    private final Entry p3 = a.writeAt(4, set("/p", "v3"));

    @AfterEach
    void close() {
        topology.close();
    }

    @Test
    void theSweepForgetsTheSupersededPrefixOlderThanTheRetentionAndTheStateStaysTheSame() {
        int changesBefore = topology.when(authorizeA, p1, p2, q1, p3).outcome().stateChanges().size();

        TopologyFixture.Outcome out = topology.advanceWallClockTime(Duration.ofMinutes(2)).outcome();

        assertThat(out.compactions()).extracting(c -> c.getDeviceSequence().longValueExact()).containsExactly(0L, 1L);
        assertThat(out.compactions()).extracting(Compaction::getCause).containsOnly(CompactionCause.SUPERSEDED_RETENTION);
        assertThat(topology.count(StoreName.ENTRIES)).as("q1 is /q's only value: the floor stops before it").isEqualTo(2);
        assertThat(out.stateChanges()).as("forgetting superseded values changes no resolution").hasSize(changesBefore);
        assertThat(out.archive()).as("the archive keeps all four; a Compact never reaches it").hasSize(4);
    }

    @Test
    void valuesYoungerThanTheRetentionStay() {
        Entry r1 = a.writeAt(now, set("/p", "recent"));
        Entry r2 = a.writeAt(now, set("/p", "more recent"));

        TopologyFixture.Outcome out = topology.when(authorizeA, r1, r2).advanceWallClockTime(Duration.ofMinutes(2)).outcome();

        assertThat(out.compactions()).isEmpty();
        assertThat(topology.count(StoreName.ENTRIES)).isEqualTo(2);
    }

    @Test
    void afterForgettingNewEntriesMergeAsWithTheWholeHistoryAndForgottenOnesReceivedAgainAreIgnored() {
        topology.when(authorizeA, p1, p2, q1, p3).advanceWallClockTime(Duration.ofMinutes(2));
        Entry p4 = a.writeAt(5, set("/p", "v4"));
        Entry tombstoneQ = a.writeAt(6, new Operation.TombstonePath("/q"));

        TopologyFixture.Outcome out = topology.when(p4, p1, tombstoneQ, p2).outcome();

        assertThat(out.state()).isEqualTo(MergedTable.of(List.of(authorizeA, p1, p2, q1, p3, p4, tombstoneQ)));
        assertThat(topology.count(StoreName.ENTRIES)).as("p1 and p2 again are dropped as forgotten history").isEqualTo(4);
        assertThat(out.archive()).as("one operation per entry ever eligible").hasSize(6);
    }

    private static Operation set(String path, String content) {
        return new Operation.SetPath(path, TestIdentity.cid(content), Operation.Mode.SINGLETON);
    }
}
