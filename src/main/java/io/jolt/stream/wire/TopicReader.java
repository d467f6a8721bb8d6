package io.jolt.stream.wire;

import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/** Reads whole topics (read_committed) and measures how far an application has consumed its inputs. */
public final class TopicReader implements AutoCloseable {
    private final String bootstrap;
    private final Admin admin;

    public TopicReader(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        this.admin = Admin.create(p);
    }

    @Override
    public void close() {
        admin.close();
    }

    /** Calls {@code each} for every committed record of the topic, up to its current end. */
    public <K, V> long readAll(String topic, Deserializer<K> keys, Deserializer<V> values, BiConsumer<K, V> each) {
        return readToEnd(bootstrap, topic, keys, values, Duration.ofMinutes(2), r -> each.accept(r.key(), r.value()));
    }

    /**
     * Reads every committed record of a topic (read_committed, all partitions from the beginning)
     * up to the end offsets it had when the read began, with a consumer of its own and no group.
     *
     * @throws IllegalStateException when the end is not reached within {@code timeout}
     */
    public static <K, V> long readToEnd(String bootstrap, String topic, Deserializer<K> keys, Deserializer<V> values, Duration timeout,
            Consumer<ConsumerRecord<K, V>> each) {
        return readToEnd(bootstrap, topic, null, null, keys, values, timeout, each);
    }

    /**
     * The same, for the one partition the default partitioner sends {@code key} to (murmur2 of the
     * key's UTF-8 bytes, as every producer of ours partitions): the records of one key, read in
     * time proportional to its partition, not to the topic.
     */
    public static <K, V> long readKeyToEnd(String bootstrap, String topic, String key, Deserializer<K> keys, Deserializer<V> values,
            Duration timeout, Consumer<ConsumerRecord<K, V>> each) {
        return readToEnd(bootstrap, topic, key, null, keys, values, timeout, each);
    }

    /**
     * The same, ending before the first record stamped after {@code untilTimestamp} (the time
     * index's lookup, {@code offsetsForTimes}): exact on a topic whose timestamps only grow, as
     * the archive's do ({@code LogAppendTime}). The caller still filters by timestamp.
     */
    public static <K, V> long readKeyUntil(String bootstrap, String topic, String key, long untilTimestamp, Deserializer<K> keys,
            Deserializer<V> values, Duration timeout, Consumer<ConsumerRecord<K, V>> each) {
        return readToEnd(bootstrap, topic, key, untilTimestamp, keys, values, timeout, each);
    }

    private static <K, V> long readToEnd(String bootstrap, String topic, String onlyKey, Long untilTimestamp, Deserializer<K> keys,
            Deserializer<V> values, Duration timeout, Consumer<ConsumerRecord<K, V>> each) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        long count = 0;
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(p, keys, values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            if (onlyKey != null) {
                int partition = BuiltInPartitioner.partitionForKey(onlyKey.getBytes(StandardCharsets.UTF_8), partitions.size());
                partitions = List.of(new TopicPartition(topic, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            if (untilTimestamp != null && untilTimestamp < Long.MAX_VALUE) {
                Map<TopicPartition, Long> after = new HashMap<>();
                partitions.forEach(tp -> after.put(tp, untilTimestamp + 1));
                consumer.offsetsForTimes(after).forEach((tp, found) -> {
                    if (found != null) {
                        ends.put(tp, Math.min(ends.get(tp), found.offset()));
                    }
                });
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + topic + " to its end within " + timeout);
                }
                for (ConsumerRecord<K, V> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        each.accept(record);
                        count++;
                    }
                }
            }
        }
        return count;
    }

    /**
     * Reads the committed records of a topic whose timestamps fall in {@code [since, until)}: each
     * partition from its first record at or after {@code since} (the time index's lookup) up to
     * the end offsets it had when the read began. {@code progress} hears (read, to read).
     */
    public static long readTimeRange(String bootstrap, String topic, long since, long until, BiConsumer<Long, Long> progress,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        long read = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, since));
            long total = 0;
            for (var e : consumer.offsetsForTimes(query).entrySet()) {
                long start = e.getValue() == null ? ends.get(e.getKey()) : e.getValue().offset();
                consumer.seek(e.getKey(), start);
                total += ends.get(e.getKey()) - start;
            }
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        read++;
                        if (record.timestamp() >= since && record.timestamp() < until) {
                            each.accept(record);
                        }
                    }
                }
                progress.accept(Math.min(read, total), total);
            }
        }
        return read;
    }

    /** Every committed value of a topic whose values are Avro records of {@code schema} in the wire format, up to its current end. */
    public <V extends SpecificRecord> List<V> values(String topic, SchemaRegistry registry, Schema schema) {
        List<V> out = new ArrayList<>();
        readAll(topic, new ByteArrayDeserializer(), new ConfluentAvroSerde<V>(registry, schema), (k, v) -> out.add(v));
        return out;
    }

    /** Input records the application has committed as processed, and the inputs' end offsets. */
    public record Progress(long processed, long total) {
        public boolean done() {
            return processed >= total;
        }
    }

    public Progress progress(String applicationId) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (var description : admin.describeTopics(List.of(Topics.AUTHORITY, Topics.ENTRIES)).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
            description.partitions().forEach(tp -> request.put(new TopicPartition(description.name(), tp.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        long total = 0;
        long processed = 0;
        for (var e : ends.entrySet()) {
            total += e.getValue();
            OffsetAndMetadata c = committed.get(e.getKey());
            processed += c == null ? 0 : Math.min(c.offset(), e.getValue());
        }
        return new Progress(processed, total);
    }
}
