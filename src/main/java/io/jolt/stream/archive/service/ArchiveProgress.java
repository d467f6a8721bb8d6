package io.jolt.stream.archive.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        long end = 0;
        for (var info : admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(30, TimeUnit.SECONDS).values()) {
            end += info.offset();
        }
        long committed = 0;
        Map<TopicPartition, OffsetAndMetadata> offsets =
                admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        for (var e : offsets.entrySet()) {
            if (e.getKey().topic().equals(topic) && e.getValue() != null) {
                committed += e.getValue().offset();
            }
        }
        return JSON.createObjectNode()
                .put("streams_state", streams.state().name())
                .put("archive_end", end)
                .put("indexed_up_to", committed)
                .put("lag", Math.max(0, end - committed))
                .put("caught_up", committed >= end && streams.state() == KafkaStreams.State.RUNNING)
                .put("indexed_this_run", counts.indexed())
                .put("unreadable", counts.unreadable());
    }

    @Override
    public void close() {
        admin.close();
    }
}
