package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.wire.Topics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Given end offsets the brokers gave at known times and what this instance's tasks committed
 * after, a partition is current as of the latest time whose end offsets its commits reach in
 * both input topics, and never as of a time they do not.
 */
class FreshnessLedgerTest {
    static final TopicPartition AUTHORITY_0 = new TopicPartition(Topics.AUTHORITY, 0);
    static final TopicPartition ENTRIES_0 = new TopicPartition(Topics.ENTRIES, 0);
    static final TopicPartition AUTHORITY_1 = new TopicPartition(Topics.AUTHORITY, 1);
    static final TopicPartition ENTRIES_1 = new TopicPartition(Topics.ENTRIES, 1);

    final FreshnessLedger ledger = new FreshnessLedger(List.of(Topics.AUTHORITY, Topics.ENTRIES));

    @Test
    void currentAsOfTheLatestEndOffsetsTheCommitsReach() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));
        ledger.ends(2_000, Map.of(AUTHORITY_0, 6L, ENTRIES_0, 180L));
        ledger.ends(3_000, Map.of(AUTHORITY_0, 6L, ENTRIES_0, 260L));

        ledger.commits(Map.of(AUTHORITY_0, 6L, ENTRIES_0, 200L));

        Freshness fresh = ledger.of(0).orElseThrow();
        assertThat(fresh.asOf()).as("the records the brokers held at 3,000 are not all processed; those of 2,000 are").isEqualTo(2_000);
        assertThat(fresh.ageMillis(9_500)).isEqualTo(7_500);
        assertThat(fresh.positionHeader()).isEqualTo("jolt.authority.v2-0=6,jolt.entries.v2-0=200");
    }

    @Test
    void bothInputTopicsMustBeReached() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));

        ledger.commits(Map.of(AUTHORITY_0, 4L, ENTRIES_0, 500L));

        assertThat(ledger.of(0)).as("an authority record the brokers held is not processed yet").isEmpty();
    }

    @Test
    void aCutOffInstanceKeepsItsLastFreshnessWhileTheClockRuns() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));
        ledger.commits(Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));

        // No end offsets come any more: commits alone move nothing.
        ledger.commits(Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));
        ledger.forgetBefore(50_000);

        assertThat(ledger.of(0).orElseThrow().ageMillis(61_000)).isEqualTo(60_000);
    }

    @Test
    void freshnessNeverGoesBackwards() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));
        ledger.ends(2_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 150L));
        ledger.commits(Map.of(AUTHORITY_0, 5L, ENTRIES_0, 150L));
        ledger.forgetBefore(1_500);

        ledger.commits(Map.of(AUTHORITY_0, 5L, ENTRIES_0, 150L));

        assertThat(ledger.of(0).orElseThrow().asOf()).isEqualTo(2_000);
    }

    @Test
    void aPartitionNoLongerHeldHasNoFreshness() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L, AUTHORITY_1, 0L, ENTRIES_1, 0L));
        ledger.commits(Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L, AUTHORITY_1, 0L, ENTRIES_1, 0L));
        assertThat(ledger.partitions()).containsExactlyInAnyOrder(0, 1);

        ledger.commits(Map.of(AUTHORITY_1, 0L, ENTRIES_1, 0L));

        assertThat(ledger.of(0)).as("partition 0 moved to another instance").isEmpty();
        assertThat(ledger.of(1)).isPresent();
    }

    @Test
    void anEndOffsetNotAskedForIsNotReached() {
        ledger.ends(1_000, Map.of(AUTHORITY_0, 5L, ENTRIES_0, 100L));

        ledger.commits(Map.of(AUTHORITY_1, 9L, ENTRIES_1, 900L));

        assertThat(ledger.of(1)).as("no end offsets of partition 1 were given").isEmpty();
    }
}
