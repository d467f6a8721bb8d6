package io.jolt.stream.bench;

import io.jolt.stream.wire.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a run wrote to each topic of the pipeline: records, counted by reading them back
 * (read_committed, so neither transaction markers nor aborted records count), and bytes, as the
 * broker's logs grew. Unlike rates these do not depend on the host's day: they are the measure of
 * how much the pipeline makes the broker take per entry.
 */
public final class TopicWrites {
    /** What a topic is to the pipeline. */
    public enum Kind { INPUT, OUTPUT, ARCHIVE, CHANGELOG, REPARTITION, ANALYTICS }

    /**
     * One topic's writes between two marks. A repartition topic is purged once its records are
     * consumed, so they cannot be read back: its records are its offsets (a transaction marker
     * counted as one) and its bytes unknown (-1).
     */
    public record Written(String topic, String label, Kind kind, long records, long bytes) {
        public boolean purged() {
            return bytes < 0;
        }
    }

    /** Each partition's end offset and log size at one moment. */
    public record Mark(Map<TopicPartition, Long> ends, Map<TopicPartition, Long> sizes) {}

    private final Admin admin;
    private final String bootstrap;
    private final String applicationId;
    private final Set<String> outputs;

    /** Over the topics of {@code applicationId} (its changelogs and repartitions) and the service's own. */
    public TopicWrites(Admin admin, String bootstrap, String applicationId) {
        this(admin, bootstrap, applicationId, Set.of(Topics.STATE, Topics.CONFLICTS, Topics.REJECTED, Topics.COMPACTIONS));
    }

    /** As above, with {@code outputs} as the output topics (the framework floor has one of its own). */
    public TopicWrites(Admin admin, String bootstrap, String applicationId, Set<String> outputs) {
        this.admin = admin;
        this.bootstrap = bootstrap;
        this.applicationId = applicationId;
        this.outputs = outputs;
    }

    public Mark mark() throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().filter(t -> kindOf(t) != null).toList();
        for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
            d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        return new Mark(ends, sizes(partitions));
    }

    /**
     * Waits until nothing more is written (the analytics run behind the processor, on its outputs):
     * the end offsets unchanged over {@code quiet}, or {@code timeout} reached.
     */
    public Mark markWhenQuiet(Duration quiet, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Mark last = mark();
        while (System.nanoTime() < deadline) {
            Thread.sleep(quiet.toMillis());
            Mark now = mark();
            if (now.ends().equals(last.ends())) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** Every topic's writes from {@code before} to {@code after}, largest first. */
    public List<Written> between(Mark before, Mark after) {
        Map<TopicPartition, Long> records = committedRecords(before.ends(), after.ends());
        Map<String, long[]> byTopic = new HashMap<>();
        after.ends().forEach((tp, end) -> {
            long[] sum = byTopic.computeIfAbsent(tp.topic(), t -> new long[2]);
            long start = before.ends().getOrDefault(tp, 0L);
            sum[0] += isPurged(tp.topic()) ? end - start : records.getOrDefault(tp, 0L);
            sum[1] += after.sizes().getOrDefault(tp, 0L) - before.sizes().getOrDefault(tp, 0L);
        });
        List<Written> out = new ArrayList<>();
        byTopic.forEach((topic, sum) -> out.add(new Written(topic, labelOf(topic), kindOf(topic), sum[0], isPurged(topic) ? -1 : sum[1])));
        out.sort(Comparator.comparingLong(Written::records).reversed().thenComparing(Written::topic));
        return out;
    }

    /** A changelog or repartition topic by its store or operation's name, the service's topics by their own. */
    private String labelOf(String topic) {
        return topic.startsWith(applicationId + "-")
                ? topic.substring(applicationId.length() + 1).replaceFirst("-(changelog|repartition)$", "") : topic;
    }

    private boolean isPurged(String topic) {
        return topic.startsWith(applicationId + "-") && topic.endsWith("-repartition");
    }

    /** The kind of a topic of this pipeline, or null for a topic it does not write. */
    Kind kindOf(String topic) {
        if (topic.equals(Topics.ENTRIES) || topic.equals(Topics.AUTHORITY)) {
            return Kind.INPUT;
        }
        if (topic.equals(Topics.ARCHIVE) || topic.equals(Topics.ARCHIVE_LOSSES)) {
            return Kind.ARCHIVE;
        }
        if (topic.equals(Topics.ANALYTICS) || topic.startsWith(applicationId + "-analytics-")) {
            return Kind.ANALYTICS;
        }
        if (outputs.contains(topic)) {
            return Kind.OUTPUT;
        }
        if (topic.startsWith(applicationId + "-")) {
            return topic.endsWith("-changelog") ? Kind.CHANGELOG : topic.endsWith("-repartition") ? Kind.REPARTITION : null;
        }
        return null;
    }

    /** The records a read_committed reader sees in each partition between two marks' offsets, read with one consumer. */
    private Map<TopicPartition, Long> committedRecords(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        Map<TopicPartition, Long> counts = new HashMap<>();
        List<TopicPartition> written = to.keySet().stream().filter(tp -> !isPurged(tp.topic()) && to.get(tp) > from.getOrDefault(tp, 0L)).toList();
        if (written.isEmpty()) {
            return counts;
        }
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(written);
            written.forEach(tp -> consumer.seek(tp, from.getOrDefault(tp, 0L)));
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (written.stream().anyMatch(tp -> consumer.position(tp) < to.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read back what the run wrote within 5 minutes");
                }
                consumer.poll(Duration.ofMillis(500)).forEach(r -> {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (r.offset() < to.get(tp)) {
                        counts.merge(tp, 1L, Long::sum);
                    }
                });
            }
        }
        return counts;
    }

    /** Each partition's log size, summed over the broker's log directories (every replica counted: what the cluster stores). */
    private Map<TopicPartition, Long> sizes(List<TopicPartition> partitions) throws Exception {
        Set<TopicPartition> ours = new HashSet<>(partitions);
        Map<TopicPartition, Long> sizes = new HashMap<>();
        List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(n -> n.id()).toList();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()) {
            for (LogDirDescription dir : dirs.values()) {
                dir.replicaInfos().forEach((tp, info) -> {
                    if (ours.contains(tp)) {
                        sizes.merge(tp, info.size(), Long::sum);
                    }
                });
            }
        }
        return sizes;
    }
}
