package io.jolt.stream.archive.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How far the index has read the archive: the archive's committed end against the offsets the
 * index committed (with its stores, exactly once), so "caught up" means every archived operation
 * up to now can be asked for.
 */
final class ArchiveProgress implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long each admin call of the status page may take. */
    private static final Duration STATUS_TIMEOUT = Duration.ofSeconds(30);

    private final Admin admin;
    private final String topic;
    private final String applicationId;
    private final KafkaStreams streams;
    private final IndexCounts counts;

    ArchiveProgress(Admin admin, String topic, String applicationId, KafkaStreams streams, IndexCounts counts) {
        this.admin = admin;
        this.topic = topic;
        this.applicationId = applicationId;
        this.streams = streams;
        this.counts = counts;
    }

    ObjectNode status() throws InterruptedException, ExecutionException, TimeoutException {
        List<TopicPartition> partitions = new ArrayList<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(STATUS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions()
                .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        long end = ends(partitions, STATUS_TIMEOUT).values().stream().mapToLong(Long::longValue).sum();
        long committed = committed(STATUS_TIMEOUT).values().stream().mapToLong(Long::longValue).sum();
        return JSON.createObjectNode()
                .put("streams_state", streams.state().name())
                .put("archive_end", end)
                .put("indexed_up_to", committed)
                .put("lag", Math.max(0, end - committed))
                .put("caught_up", committed >= end && streams.state() == KafkaStreams.State.RUNNING)
                .put("indexed_this_run", counts.indexed())
                .put("unreadable", counts.unreadable());
    }

    /** Records of {@code partitions} archived but not yet indexed: their committed ends less the index's committed offsets. */
    long lag(Collection<TopicPartition> partitions, Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        if (partitions.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, Long> committed = committed(timeout);
        long lag = 0;
        for (var end : ends(partitions, timeout).entrySet()) {
            lag += Math.max(0, end.getValue() - committed.getOrDefault(end.getKey(), 0L));
        }
        return lag;
    }

    /** The archive's committed end of each partition: what a read_committed reader, the index, can reach. */
    private Map<TopicPartition, Long> ends(Collection<TopicPartition> partitions, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(p -> latest.put(p, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((p, info) -> ends.put(p, info.offset()));
        return ends;
    }

    /** The offsets the index committed on the archive topic, with its stores. */
    private Map<TopicPartition, Long> committed(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, Long> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((p, offset) -> {
                    if (p.topic().equals(topic) && offset != null) {
                        committed.put(p, offset.offset());
                    }
                });
        return committed;
    }

    @Override
    public void close() {
        admin.close();
    }
}
