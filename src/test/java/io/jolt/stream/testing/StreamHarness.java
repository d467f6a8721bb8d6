package io.jolt.stream.testing;

import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.JoltService;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.VectorRecords;
import io.jolt.stream.kafka.serde.SchemaRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;

/** Producing input, running the service, and reading outputs back, against the real broker. */
public final class StreamHarness {
    private final KafkaBroker broker;

    public StreamHarness(KafkaBroker broker) {
        this.broker = broker;
    }

    /** Deletes every jolt topic, so a test starts from nothing (topics come back from topics.yaml). */
    public void resetTopics() throws Exception {
        try (Admin admin = broker.admin()) {
            Set<String> ours = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith("jolt.")).collect(Collectors.toSet());
            if (!ours.isEmpty()) {
                admin.deleteTopics(ours).all().get(30, TimeUnit.SECONDS);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().anyMatch(ours::contains)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics not deleted: " + ours);
                }
                Thread.sleep(100);
            }
        }
    }

    public JoltConfig config(String applicationId, Path stateDir, int partitions) {
        Properties p = new Properties();
        p.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.setProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2");
        p.setProperty(JoltConfig.TOPIC_PARTITIONS, String.valueOf(partitions));
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return JoltConfig.of(p, Map.of());
    }

    public JoltService start(JoltConfig config, SchemaRegistry registry) throws Exception {
        return JoltService.start(config, registry).awaitRunning(Duration.ofSeconds(60));
    }

    public List<RecordMetadata> produce(List<VectorRecords> records) throws Exception {
        List<ProducerRecord<String, byte[]>> raw = new ArrayList<>();
        records.forEach(r -> raw.add(new ProducerRecord<>(r.topic(), r.key(), r.value())));
        return produceRaw(raw);
    }

    public List<RecordMetadata> produceRaw(List<ProducerRecord<String, byte[]>> records) throws Exception {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        List<RecordMetadata> out = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<String, byte[]> r : records) {
                sent.add(producer.send(r));
            }
            producer.flush();
            for (var f : sent) {
                out.add(f.get(30, TimeUnit.SECONDS));
            }
        }
        return out;
    }

    /** Waits until the application has committed every input record (so its outputs are committed too). */
    public void awaitProcessed(String applicationId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = broker.admin()) {
            while (true) {
                Map<TopicPartition, Long> ends = endOffsets(admin, List.of(Topics.AUTHORITY, Topics.ENTRIES));
                Map<TopicPartition, OffsetAndMetadata> committed =
                        admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
                boolean done = ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                        || (committed.get(e.getKey()) != null && committed.get(e.getKey()).offset() >= e.getValue()));
                if (done) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("not processed within " + timeout + ": ends " + ends + ", committed " + committed);
                }
                Thread.sleep(100);
            }
        }
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, List<String> topics) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (var description : admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
            description.partitions().forEach(p -> request.put(new TopicPartition(description.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e : admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).entrySet()) {
            out.put(e.getKey(), e.getValue().offset());
        }
        return out;
    }

    /** Every committed record of a topic (read_committed), in partition order. */
    public <K, V> List<ConsumerRecord<K, V>> readAll(String topic, Deserializer<K> keys, Deserializer<V> values) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(p, keys, values)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + topic + " to its end");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    public static Path tempStateDir(String name) throws Exception {
        Files.createDirectories(Path.of("target", "it-state"));
        return Files.createTempDirectory(Path.of("target", "it-state").toAbsolutePath(), name + "-");
    }
}
