package io.jolt.stream.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Kafka Streams' part of readiness, the same for both services: the instance is RUNNING and no
 * active task of it is still restoring a store from its changelog. The restores are what Kafka
 * Streams reports to this listener, so it must be registered before Kafka Streams starts (it
 * cannot be later). Standby tasks are not reported to it: only what this instance answers for
 * counts.
 */
public final class StreamsReadiness implements StateRestoreListener {
    /** One changelog partition in restore. Offsets, not records: a transaction marker counts as one. */
    private record Restore(long position, long end) {
        long left() {
            return Math.max(0, end - position);
        }
    }

    /** The partitions of one changelog topic in restore. */
    private record Changelog(int partitions, long left) {
        Changelog plus(Changelog other) {
            return new Changelog(partitions + other.partitions, left + other.left);
        }
    }

    private final Map<TopicPartition, Restore> restoring = new ConcurrentHashMap<>();

    /** Why the instance should not take traffic yet, Kafka Streams' state first; empty when it should. */
    public List<String> notReadyBecause(KafkaStreams.State state) {
        List<String> reasons = new ArrayList<>();
        if (state != KafkaStreams.State.RUNNING) {
            reasons.add("Kafka Streams is " + state);
        }
        reasons.addAll(restoring());
        return reasons;
    }

    /** One sentence per changelog topic, by name: how many of its partitions are restoring and how much is left. */
    private List<String> restoring() {
        Map<String, Changelog> byTopic = new TreeMap<>();
        restoring.forEach((partition, restore) -> byTopic.merge(partition.topic(), new Changelog(1, restore.left()), Changelog::plus));
        List<String> reasons = new ArrayList<>();
        byTopic.forEach((topic, changelog) -> reasons.add("restoring " + counted(changelog.partitions(), "partition") + " of " + topic + ", "
                + counted(changelog.left(), "record") + " left"));
        return reasons;
    }

    /** "1 partition", "1,234 records": for the reasons of both services. */
    public static String counted(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }

    /** {@code startingOffset} is the restore consumer's position, {@code endingOffset} the changelog's end (exclusive). */
    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        restoring.put(partition, new Restore(startingOffset, endingOffset));
    }

    /** {@code batchEndOffset} is the last record restored. */
    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        restoring.computeIfPresent(partition, (p, restore) -> new Restore(batchEndOffset + 1, restore.end()));
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
    }

    /** The task moved to another instance mid-restore: no longer this instance's to wait for. */
    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
    }
}
