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

    /** Partition 4's task, committed nothing since it was assigned. */
    static final Map<TopicPartition, Long> UNCOMMITTED = offsets(-1, -1);

    final ResumePoints resumes = new ResumePoints(SESSION, 1_000);

    static Map<TopicPartition, Long> offsets(long authority, long entries) {
        return Map.of(AUTHORITY_4, authority, ENTRIES_4, entries);
    }

    @Test
    void aQuietPartitionCountsFromTheGroupsCommitReadJustAfterItsTaskWasAssigned() {
        Map<TopicPartition, Long> held = offsets(-1, 700);
        resumes.look(1_100, held);

        resumes.groupCommits(1_150, offsets(69, 690));

        assertThat(resumes.positions(held)).as("the task's own commit wins where it has one").containsExactlyInAnyOrderEntriesOf(
                offsets(69, 700));
        assertThat(resumes.awaiting()).isEmpty();
    }

    @Test
    void aCommitAnotherInstanceMadeAfterACutIsNeverClaimed() {
        // Seed -2817445977780391831: assigned just before its link went down, the task never
        // committed; after the link came back the group's commits were its successor's.
        resumes.look(1_100, UNCOMMITTED);
        resumes.groupCommits(1_200, offsets(60, 650));
        resumes.look(30_000, UNCOMMITTED);

        resumes.groupCommits(30_100, offsets(69, 723));

        assertThat(resumes.positions(UNCOMMITTED)).containsExactlyInAnyOrderEntriesOf(offsets(60, 650));
    }

    @Test
    void aGroupCommitReadTooLongAfterTheAssignmentProvesNothing() {
        resumes.look(1_100, UNCOMMITTED);
        // The brokers did not answer until the partition may have moved: half a session later.
        resumes.groupCommits(1_000 + SESSION / 2 + 1, offsets(69, 723));

        assertThat(resumes.positions(UNCOMMITTED)).as("no position until the task commits").isEmpty();
        assertThat(resumes.awaiting()).as("and it is not asked again").isEmpty();

        Map<TopicPartition, Long> committed = offsets(-1, 731);
        resumes.look(20_000, committed);
        assertThat(resumes.positions(committed)).containsExactlyInAnyOrderEntriesOf(Map.of(ENTRIES_4, 731L));
    }

    @Test
    void theAssignmentIsDatedFromTheLastLookThatDidNotSeeTheTask() {
        resumes.look(2_000, Map.of());
        resumes.look(9_000, Map.of());
        resumes.look(9_100, UNCOMMITTED);

        resumes.groupCommits(13_900, offsets(3, 30));

        assertThat(resumes.positions(UNCOMMITTED)).containsExactlyInAnyOrderEntriesOf(offsets(3, 30));
    }

    @Test
    void aPartitionTheGroupNeverCommittedResumesFromTheStart() {
        resumes.look(1_100, UNCOMMITTED);

        resumes.groupCommits(1_200, Map.of());

        assertThat(resumes.positions(UNCOMMITTED)).containsExactlyInAnyOrderEntriesOf(offsets(0, 0));
    }

    @Test
    void aTaskAssignedAgainIsAskedAgain() {
        resumes.look(1_100, UNCOMMITTED);
        resumes.groupCommits(1_200, offsets(60, 650));
        resumes.look(20_000, Map.of());

        resumes.look(20_100, UNCOMMITTED);
        assertThat(resumes.awaiting()).containsExactlyInAnyOrder(AUTHORITY_4, ENTRIES_4);
        resumes.groupCommits(20_200, offsets(69, 723));

        assertThat(resumes.positions(UNCOMMITTED)).containsExactlyInAnyOrderEntriesOf(offsets(69, 723));
    }
}
