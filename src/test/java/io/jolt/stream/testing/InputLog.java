package io.jolt.stream.testing;

import io.jolt.stream.wire.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Every record of the two input topics, where it stands: what the service was given, read back after a run. */
public final class InputLog {
    private InputLog() {}

    /** A record of an input topic at its partition and offset. */
    public record Stored(String topic, int partition, long offset, byte[] value) {
        public String at() {
            return at(topic, partition, offset);
        }

        public static String at(String topic, int partition, long offset) {
            return topic + "-" + partition + "@" + offset;
        }
    }

    public static List<Stored> read(String bootstrap) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        List<Stored> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.AUTHORITY, Topics.ENTRIES)) {
                consumer.partitionsFor(topic).forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    out.add(new Stored(r.topic(), r.partition(), r.offset(), r.value()));
                }
            }
        }
        return out;
    }
}
