package io.jolt.stream.http;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Kafka Streams' part of readiness, the same for both services: the instance is RUNNING and no
 * active task of it is still restoring a store from its changelog. The restores are what Kafka
 * Streams reports to this listener, so it must be registered before Kafka Streams starts (it
 * cannot be later). Standby tasks are not reported to it: only what this instance answers for
 * counts. Bound to a registry, it also shows each restore's progress as a metric.
 */
public final class StreamsReadiness implements StateRestoreListener, MeterBinder {
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
    /** What each changelog partition ever restored here has left: 0 once restored, so a graph ends at zero rather than vanishing. */
    private final Map<TopicPartition, AtomicLong> left = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /**
     * {@code jolt_restore_remaining{changelog, partition}}: the offsets this instance has still to
     * restore of each changelog partition of its active tasks. Restores may start before the
     * registry exists, so those already known are registered now.
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        left.keySet().forEach(partition -> gauge(registry, partition));
    }

    private void progress(TopicPartition partition, long remaining) {
        AtomicLong value = left.computeIfAbsent(partition, p -> new AtomicLong());
        value.set(remaining);
        MeterRegistry bound = registry;
        if (bound != null) {
            gauge(bound, partition);
        }
    }

    private void gauge(MeterRegistry registry, TopicPartition partition) {
        Gauge.builder("jolt.restore.remaining", left.get(partition), AtomicLong::get)
                .description("changelog offsets this instance has still to restore, by changelog partition (0 once restored)")
                .tag("changelog", partition.topic()).tag("partition", Integer.toString(partition.partition())).register(registry);
    }

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
        Restore restore = new Restore(startingOffset, endingOffset);
        restoring.put(partition, restore);
        progress(partition, restore.left());
    }

    /** {@code batchEndOffset} is the last record restored. */
    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        Restore now = restoring.computeIfPresent(partition, (p, restore) -> new Restore(batchEndOffset + 1, restore.end()));
        if (now != null) {
            progress(partition, now.left());
        }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
        progress(partition, 0);
    }

    /** The task moved to another instance mid-restore: no longer this instance's to wait for. */
    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        restoring.remove(partition);
        progress(partition, 0);
    }
}
