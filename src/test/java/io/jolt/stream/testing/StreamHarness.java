package io.jolt.stream.testing;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.TopologyFixture;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltService;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
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
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;

/** Producing input, running the service, and reading outputs back, against the real broker. */
public final class StreamHarness {
    private final String bootstrap;

    public StreamHarness(KafkaBroker broker) {
        this(broker.bootstrapServers());
    }

    /** Against any cluster, forked brokers included. */
    public StreamHarness(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    private Admin admin() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrap);
        return Admin.create(p);
    }

    private static Set<String> joltTopics(Admin admin) throws Exception {
        return admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().filter(t -> t.startsWith("jolt.")).collect(Collectors.toSet());
    }

    /** Deletes every jolt topic, so a test starts from nothing (topics come back from topics.yaml). */
    public void resetTopics() throws Exception {
        try (Admin admin = admin()) {
            Set<String> ours = joltTopics(admin);
            if (!ours.isEmpty()) {
                admin.deleteTopics(ours).all().get(30, TimeUnit.SECONDS);
            }
            Waiting.await("topics deleted: " + ours).atMost(Duration.ofSeconds(30))
                    .until(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().noneMatch(ours::contains));
        }
    }

    public JoltConfig config(String applicationId, Path stateDir, int partitions) {
        Properties p = new Properties();
        p.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.setProperty(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.setProperty(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2");
        p.setProperty(JoltConfig.TOPIC_PARTITIONS, String.valueOf(partitions));
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return JoltConfig.of(p, Map.of());
    }

    /** The service with the bolt on Kafka, RUNNING. */
    public JoltService<KafkaBolt> start(JoltConfig config, SchemaRegistry registry) throws Exception {
        return JoltService.start(config, registry, () -> new KafkaBolt(config.boltProducerProperties(), registry)).awaitRunning(Duration.ofSeconds(60));
    }

    /** The final state table of jolt.state.v2, read to its end. */
    public Map<TopologyFixture.IdentityPath, Resolution> stateTable(SchemaRegistry registry) {
        return TopologyFixture.table(readAll(Topics.STATE, new ByteArrayDeserializer(), new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()))
                .stream().map(ConsumerRecord::value).toList());
    }

    public List<RecordMetadata> produce(List<VectorRecords> records) throws Exception {
        List<ProducerRecord<String, byte[]>> raw = new ArrayList<>();
        records.forEach(r -> raw.add(new ProducerRecord<>(r.topic(), r.key(), r.value())));
        return produceRaw(raw);
    }

    public List<RecordMetadata> produceRaw(List<ProducerRecord<String, byte[]>> records) throws Exception {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        // One request in flight: a fresh idempotent producer whose first batch to a partition is
        // refused (NOT_LEADER_OR_FOLLOWER, as right after a broker restart) while its second is
        // appended retries the first with OUT_OF_ORDER_SEQUENCE_NUMBER until it expires
        // (KAFKA-14359; seen here in BrokerFaultIT, 120 s). With one in flight there is no second.
        p.setProperty(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
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

    /**
     * Waits until the application has committed every input record and the transactions that
     * carried those commits are decided on every jolt topic, so a read_committed read sees all
     * their outputs. The group's offsets can be visible before the coordinator has written the
     * same transaction's commit markers to the output partitions; until then such a read stops
     * short (seen: 620 conflict events read, 689 a moment later; one switched-away entry missing).
     */
    public void awaitProcessed(String applicationId, Duration timeout) throws Exception {
        long started = System.nanoTime();
        try (TopicReader reader = new TopicReader(bootstrap)) {
            Waiting.await(applicationId + " processed every input record").atMost(timeout)
                    .until(() -> reader.progress(applicationId), TopicReader.Progress::done);
        }
        // what is left of the timeout, or a second for a last look (Awaitility wants a positive timeout)
        Duration left = timeout.minusNanos(System.nanoTime() - started);
        awaitDecided(left.compareTo(Duration.ofSeconds(1)) > 0 ? left : Duration.ofSeconds(1));
    }

    /** Input records produced, and committed as processed by the application, now. */
    public TopicReader.Progress progress(String applicationId) throws Exception {
        try (TopicReader reader = new TopicReader(bootstrap)) {
            return reader.progress(applicationId);
        }
    }

    /**
     * Waits until the application has committed a third of what it had not committed when it had
     * {@code processedBefore} records committed, and returns how many records were then produced
     * but not yet committed: a fault struck at once lands with about that many in flight.
     */
    public long awaitMidStream(String applicationId, long processedBefore, Duration timeout) throws Exception {
        try (TopicReader reader = new TopicReader(bootstrap)) {
            long total = reader.progress(applicationId).total();
            long target = processedBefore + Math.max(1, (total - processedBefore) / 3);
            TopicReader.Progress p = Waiting.await("progress beyond " + processedBefore + " to " + target).atMost(timeout)
                    .pollInterval(Duration.ofMillis(50)).until(() -> reader.progress(applicationId), now -> now.processed() >= target);
            return p.total() - p.processed();
        }
    }

    /** The input offsets the application has committed, by partition (the next offset it will process). */
    public Map<TopicPartition, Long> committedOffsets(String applicationId) throws Exception {
        try (Admin admin = admin()) {
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                    .forEach((tp, offset) -> out.put(tp, offset.offset()));
            return out;
        }
    }

    /** Until the last stable offset of every jolt partition has reached its end as of now. */
    private void awaitDecided(Duration left) throws Exception {
        try (Admin admin = admin()) {
            Set<String> topics = joltTopics(admin);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).forEach((topic, d) -> d.partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, Long> written = ends(admin, latest, IsolationLevel.READ_UNCOMMITTED);
            Waiting.await("transactions decided on every jolt partition").atMost(left)
                    .until(() -> open(written, ends(admin, latest, IsolationLevel.READ_COMMITTED)), List::isEmpty);
        }
    }

    /** The partitions whose last stable offset is still below what had been written. */
    private static List<TopicPartition> open(Map<TopicPartition, Long> written, Map<TopicPartition, Long> stable) {
        return written.keySet().stream().filter(tp -> stable.get(tp) < written.get(tp)).toList();
    }

    private static Map<TopicPartition, Long> ends(Admin admin, Map<TopicPartition, OffsetSpec> latest, IsolationLevel isolation)
            throws Exception {
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all().get(30, TimeUnit.SECONDS)
                .forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    /** Every committed record of a topic (read_committed), in partition order. */
    public <K, V> List<ConsumerRecord<K, V>> readAll(String topic, Deserializer<K> keys, Deserializer<V> values) {
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        try (TopicReader reader = new TopicReader(bootstrap)) {
            reader.readAll(topic, keys, values, (k, v) -> out.add(new ConsumerRecord<>(topic, 0, out.size(), k, v)));
        }
        return out;
    }

    public static Path tempStateDir(String name) throws Exception {
        Files.createDirectories(Path.of("target", "it-state"));
        return Files.createTempDirectory(Path.of("target", "it-state").toAbsolutePath(), name + "-");
    }
}
