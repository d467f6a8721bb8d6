package io.jolt.stream.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.wire.Topics;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Given the tasks an instance holds and the group's commits read at known times, a partition its
 * task has not committed counts from where the task resumed, and never from a commit another
 * instance made after the partition moved.
 */
class ResumePointsTest {
    static final TopicPartition AUTHORITY_4 = new TopicPartition(Topics.AUTHORITY, 4);
    static final TopicPartition ENTRIES_4 = new TopicPartition(Topics.ENTRIES, 4);
    static final long SESSION = 10_000;

    final ResumePoints resumes = new ResumePoints(SESSION, 1_000);

    @Test
    void aQuietPartitionCountsFromTheGroupsCommitReadJustAfterItsTaskWasAssigned() {
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, 700L);
        resumes.look(1_100, held);

        resumes.groupCommits(1_150, Map.of(AUTHORITY_4, 69L, ENTRIES_4, 690L));

        assertThat(resumes.positions(held)).as("the task's own commit wins where it has one").containsExactlyInAnyOrderEntriesOf(
                Map.of(AUTHORITY_4, 69L, ENTRIES_4, 700L));
        assertThat(resumes.awaiting()).isEmpty();
    }

    @Test
    void aCommitAnotherInstanceMadeAfterACutIsNeverClaimed() {
        // Seed -2817445977780391831: assigned just before its link went down, the task never
        // committed; after the link came back the group's commits were its successor's.
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, -1L);
        resumes.look(1_100, held);
        resumes.groupCommits(1_200, Map.of(AUTHORITY_4, 60L, ENTRIES_4, 650L));
        resumes.look(30_000, held);

        resumes.groupCommits(30_100, Map.of(AUTHORITY_4, 69L, ENTRIES_4, 723L));

        assertThat(resumes.positions(held)).containsExactlyInAnyOrderEntriesOf(Map.of(AUTHORITY_4, 60L, ENTRIES_4, 650L));
    }

    @Test
    void aGroupCommitReadTooLongAfterTheAssignmentProvesNothing() {
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, -1L);
        resumes.look(1_100, held);
        // The brokers did not answer until the partition may have moved: half a session later.
        resumes.groupCommits(1_000 + SESSION / 2 + 1, Map.of(AUTHORITY_4, 69L, ENTRIES_4, 723L));

        assertThat(resumes.positions(held)).as("no position until the task commits").isEmpty();
        assertThat(resumes.awaiting()).as("and it is not asked again").isEmpty();

        Map<TopicPartition, Long> committed = Map.of(AUTHORITY_4, -1L, ENTRIES_4, 731L);
        resumes.look(20_000, committed);
        assertThat(resumes.positions(committed)).containsExactlyInAnyOrderEntriesOf(Map.of(ENTRIES_4, 731L));
    }

    @Test
    void theAssignmentIsDatedFromTheLastLookThatDidNotSeeTheTask() {
        resumes.look(2_000, Map.of());
        resumes.look(9_000, Map.of());
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, -1L);
        resumes.look(9_100, held);

        resumes.groupCommits(13_900, Map.of(AUTHORITY_4, 3L, ENTRIES_4, 30L));

        assertThat(resumes.positions(held)).containsExactlyInAnyOrderEntriesOf(Map.of(AUTHORITY_4, 3L, ENTRIES_4, 30L));
    }

    @Test
    void aPartitionTheGroupNeverCommittedResumesFromTheStart() {
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, -1L);
        resumes.look(1_100, held);

        resumes.groupCommits(1_200, Map.of());

        assertThat(resumes.positions(held)).containsExactlyInAnyOrderEntriesOf(Map.of(AUTHORITY_4, 0L, ENTRIES_4, 0L));
    }

    @Test
    void aTaskAssignedAgainIsAskedAgain() {
        Map<TopicPartition, Long> held = Map.of(AUTHORITY_4, -1L, ENTRIES_4, -1L);
        resumes.look(1_100, held);
        resumes.groupCommits(1_200, Map.of(AUTHORITY_4, 60L, ENTRIES_4, 650L));
        resumes.look(20_000, Map.of());

        resumes.look(20_100, held);
        assertThat(resumes.awaiting()).containsExactlyInAnyOrder(AUTHORITY_4, ENTRIES_4);
        resumes.groupCommits(20_200, Map.of(AUTHORITY_4, 69L, ENTRIES_4, 723L));

        assertThat(resumes.positions(held)).containsExactlyInAnyOrderEntriesOf(Map.of(AUTHORITY_4, 69L, ENTRIES_4, 723L));
    }
}
