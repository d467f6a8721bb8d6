package io.jolt.stream.processor;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * Where this instance's tasks resumed, for the input partitions they have not committed since they
 * were assigned. Kafka Streams commits a partition only once it has consumed from it, so a quiet
 * partition's task shows no committed offset ({@code -1}). Its stores hold what the group had
 * committed when the task was assigned: everything before that offset, and nothing another
 * instance processed after.
 *
 * <p>The group's commit is that offset only while no other instance owns the partition. So it is
 * read once, as soon as the task is seen, and kept: the coordinator moves a partition away only
 * after its member has been silent for a session timeout, and a commit read back within half of
 * one from the last look that did not see the task cannot be another instance's. Read later (the
 * brokers did not answer in time) it proves nothing, and the partition stays without a position
 * until its task commits or is assigned again. Re-reading the group's commit on every look would
 * let an instance cut off from the group claim what its successor processed.
 */
final class ResumePoints {
    private sealed interface Point {}

    /** Seen uncommitted, assigned after {@code assignedAfter}: the group's commit is still to be read. */
    private record Awaiting(long assignedAfter) implements Point {}

    /** Resumed from {@code offset}. */
    private record Resumed(long offset) implements Point {}

    /** The group's commit came too late to be this task's: no position until the task commits. */
    private record Unknown() implements Point {}

    private final long trustWithinMillis;
    private final Map<TopicPartition, Point> points = new HashMap<>();
    private long lastLook;

    /**
     * @param sessionTimeoutMillis the group's session timeout: a read of the group's commit within
     *     half of it from the task's assignment is trusted
     * @param notAssignedBefore a time (ms) before which no task was assigned here: when the instance's
     *     Kafka Streams started
     */
    ResumePoints(long sessionTimeoutMillis, long notAssignedBefore) {
        this.trustWithinMillis = sessionTimeoutMillis / 2;
        this.lastLook = notAssignedBefore;
    }

    /**
     * A look at what the active tasks held here have committed ({@code -1}: nothing since assigned),
     * at {@code now}: partitions no longer held, or committed, are forgotten; those newly seen
     * uncommitted await the group's commit.
     */
    synchronized void look(long now, Map<TopicPartition, Long> committed) {
        points.keySet().removeIf(tp -> committed.getOrDefault(tp, 0L) >= 0);
        committed.forEach((tp, offset) -> {
            if (offset < 0) {
                points.putIfAbsent(tp, new Awaiting(lastLook));
            }
        });
        lastLook = now;
    }

    /** The partitions whose group commit is still to be read. */
    synchronized Set<TopicPartition> awaiting() {
        return points.entrySet().stream().filter(e -> e.getValue() instanceof Awaiting).map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    /** The group's commits ({@code 0} where it has none), as answered at {@code answeredAt}. */
    synchronized void groupCommits(long answeredAt, Map<TopicPartition, Long> group) {
        points.replaceAll((tp, point) -> point instanceof Awaiting awaiting
                ? answeredAt - awaiting.assignedAfter() <= trustWithinMillis ? new Resumed(group.getOrDefault(tp, 0L)) : new Unknown()
                : point);
    }

    /**
     * The position of each partition in {@code committed} this instance can vouch for: its commit,
     * else where its task resumed; a partition whose resume point is not known is left out.
     */
    synchronized Map<TopicPartition, Long> positions(Map<TopicPartition, Long> committed) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        committed.forEach((tp, offset) -> {
            if (offset >= 0) {
                positions.put(tp, offset);
            } else if (points.get(tp) instanceof Resumed resumed) {
                positions.put(tp, resumed.offset());
            }
        });
        return positions;
    }
}
