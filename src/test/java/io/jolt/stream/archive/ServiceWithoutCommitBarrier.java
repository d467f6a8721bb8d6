package io.jolt.stream.archive;

import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.processor.BoltBeforeCommit;
import io.jolt.stream.processor.JoltTopology;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltService;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistries;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.nio.file.Path;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The service as {@link JoltService#start} wires it, less the commit barrier
 * ({@link BoltBeforeCommit}): the same topology and bolt, but the stream threads' producers are
 * Kafka Streams' own, so a transaction may commit while archive writes are still in flight. Only
 * {@link ArchiveCrashWindowIT} runs it (with {@code --config FILE}, as {@code jolt run}), to show
 * the window the barrier closes; the service itself has no switch to open it.
 */
public final class ServiceWithoutCommitBarrier {
    private ServiceWithoutCommitBarrier() {}

    public static void main(String[] args) throws Exception {
        JoltConfig config = JoltConfig.load(Path.of(args[1]), System.getenv());
        SchemaRegistry registry = SchemaRegistries.from(config::get).orElseGet(TopicSchemas::seededRegistry); // as jolt run
        try (Admin admin = Admin.create(config.adminProperties())) {
            TopicGuard.ensure(admin, Topics.load(config.topicPartitions(), config.topicReplication()));
        }
        KafkaBolt bolt = new KafkaBolt(config.boltProducerProperties(), registry);
        KafkaStreams streams = new KafkaStreams(JoltTopology.build(registry, bolt, config.forgetting(), Verifiers.fastest().check()),
                config.streamsProperties());
        streams.start();
        Thread.currentThread().join(); // until killed
    }
}
