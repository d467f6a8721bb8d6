package io.jolt.stream.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** The reasons readiness gives, from what Kafka Streams told its restore listener. */
class StreamsReadinessTest {
    static final String ENTRIES = "jolt-stream-jolt-entries-changelog";
    static final String HEADS = "jolt-stream-jolt-heads-changelog";

    final StreamsReadiness readiness = new StreamsReadiness();

    @Test
    void runningWithNothingRestoringIsReady() {
        assertThat(readiness.notReadyBecause(KafkaStreams.State.RUNNING)).isEmpty();
    }

    @Test
    void anyOtherStateIsNamed() {
        assertThat(readiness.notReadyBecause(KafkaStreams.State.REBALANCING)).containsExactly("Kafka Streams is REBALANCING");
        assertThat(readiness.notReadyBecause(KafkaStreams.State.ERROR)).containsExactly("Kafka Streams is ERROR");
    }

    @Test
    void restoresAreSummedPerChangelogWithTheRecordsLeft() {
        // given three partitions of one changelog and one of another restoring
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 0), "jolt-entries", 0, 1_000);
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 1), "jolt-entries", 200, 700);
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 2), "jolt-entries", 10, 10);
        readiness.onRestoreStart(new TopicPartition(HEADS, 3), "jolt-heads", 0, 1);
        // when a batch of the first is restored
        readiness.onBatchRestored(new TopicPartition(ENTRIES, 0), "jolt-entries", 265, 266);
        // expect: 734 + 500 + 0 left of the entries, by changelog name, the state first
        assertThat(readiness.notReadyBecause(KafkaStreams.State.REBALANCING)).containsExactly(
                "Kafka Streams is REBALANCING",
                "restoring 3 partitions of " + ENTRIES + ", 1,234 records left",
                "restoring 1 partition of " + HEADS + ", 1 record left");
    }

    @Test
    void aRestoreThatEndedOrMovedAwayIsNoLongerWaitedFor() {
        // given two partitions restoring
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 0), "jolt-entries", 0, 50);
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 1), "jolt-entries", 0, 50);
        // when one ends and the other's task moves to another instance
        readiness.onRestoreEnd(new TopicPartition(ENTRIES, 0), "jolt-entries", 50);
        assertThat(readiness.notReadyBecause(KafkaStreams.State.RUNNING)).containsExactly("restoring 1 partition of " + ENTRIES + ", 50 records left");
        readiness.onRestoreSuspended(new TopicPartition(ENTRIES, 1), "jolt-entries", 20);
        // expect ready
        assertThat(readiness.notReadyBecause(KafkaStreams.State.RUNNING)).isEmpty();
    }

    @Test
    void aBatchOfAPartitionNotRestoringChangesNothing() {
        readiness.onBatchRestored(new TopicPartition(ENTRIES, 0), "jolt-entries", 99, 100);
        assertThat(readiness.notReadyBecause(KafkaStreams.State.RUNNING)).isEmpty();
    }

    @Test
    void eachRestoresProgressIsAMetricThatEndsAtZero() {
        // given a partition restoring before the registry exists, and one after
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        readiness.onRestoreStart(new TopicPartition(ENTRIES, 0), "jolt-entries", 0, 1_000);
        readiness.bindTo(registry);
        readiness.onRestoreStart(new TopicPartition(HEADS, 1), "jolt-heads", 0, 10);
        // when the first restores a batch and the second ends
        readiness.onBatchRestored(new TopicPartition(ENTRIES, 0), "jolt-entries", 399, 400);
        readiness.onRestoreEnd(new TopicPartition(HEADS, 1), "jolt-heads", 10);
        // expect: what each has left, by changelog partition
        assertThat(registry.get("jolt.restore.remaining").tags("changelog", ENTRIES, "partition", "0").gauge().value()).isEqualTo(600);
        assertThat(registry.get("jolt.restore.remaining").tags("changelog", HEADS, "partition", "1").gauge().value()).isZero();
    }
}
