package io.jolt.stream.bench;

import io.jolt.stream.local.CpuUse;
import io.jolt.stream.local.LocalRuns;
import io.jolt.stream.local.LocalStack;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * Runs {@link FloorTopology} once the service has stopped, on the same broker, over the input the
 * service read: warm-up records untimed, then the timed ones until every one is committed by its
 * group, exactly as the service is timed. It runs after the service, not before, so that the
 * service is measured as a bench without {@code --floor} measures it, and so that both read the
 * records produced once, byte for byte. It has the service's configuration (stream threads,
 * exactly_once_v2, commit interval, producer and RocksDB settings) but for its own application
 * id, state directory and output topic, so it reads the inputs from their start as a new group.
 */
public final class FrameworkFloor {
    private FrameworkFloor() {}

    /** The input both read: how many records come first as the warm-up, then how many are timed. */
    public record Input(long warmUpRecords, long timedRecords) {}

    public static FloorResult run(LocalStack stack, JoltConfig service, SchemaRegistry registry, Input input, PrintWriter err) throws Exception {
        String applicationId = service.get(StreamsConfig.APPLICATION_ID_CONFIG) + "-floor";
        Path stateDir = Files.createDirectories(Path.of(service.get(StreamsConfig.STATE_DIR_CONFIG)).resolveSibling(applicationId));
        JoltConfig config = service.with(StreamsConfig.APPLICATION_ID_CONFIG, applicationId).with(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        String output = applicationId + "-output";
        try (Admin admin = Admin.create(config.adminProperties()); TopicReader reader = new TopicReader(stack.bootstrap())) {
            createLikeEntries(admin, output);
            TopicWrites writes = new TopicWrites(admin, stack.bootstrap(), applicationId, Set.of(output));
            TopicWrites.Mark before = writes.mark();
            long t1 = System.nanoTime();
            KafkaStreams streams = new KafkaStreams(FloorTopology.build(registry, output), config.streamsProperties());
            streams.setUncaughtExceptionHandler(e -> StreamThreadExceptionResponse.REPLACE_THREAD); // as the service does
            streams.start();
            try {
                awaitRunning(streams, Duration.ofMinutes(2));
                CpuUse running = CpuUse.now(stack.brokerProcess());
                if (input.warmUpRecords() > 0) {
                    LocalRuns.awaitProcessed(reader, applicationId, 0, input.warmUpRecords(), "floor, warming up", err, running, stack.brokerProcess());
                }
                CpuUse timedFrom = CpuUse.now(stack.brokerProcess());
                LocalRuns.Processed timed = LocalRuns.awaitProcessed(reader, applicationId, input.warmUpRecords(), input.timedRecords(), "floor",
                        err, running, stack.brokerProcess());
                CpuUse.Cores cores = CpuUse.now(stack.brokerProcess()).since(timedFrom);
                // Without a warm-up the service is timed from its start, and so is the floor.
                double seconds = input.warmUpRecords() > 0 ? timed.seconds() : (System.nanoTime() - t1) / 1e9;
                // Its writes are committed with its offsets; the quiet wait only lets the last transaction markers land.
                TopicWrites.Mark after = writes.markWhenQuiet(Duration.ofSeconds(1), Duration.ofSeconds(30));
                return new FloorResult(input.timedRecords(), seconds, cores, writes.between(before, after),
                        input.warmUpRecords() + input.timedRecords());
            } finally {
                streams.close(Duration.ofSeconds(30));
            }
        }
    }

    /** The output topic, with the partitions and replication of jolt.entries.v2. */
    private static void createLikeEntries(Admin admin, String topic) throws Exception {
        TopicDescription entries = admin.describeTopics(List.of(Topics.ENTRIES)).allTopicNames().get(30, TimeUnit.SECONDS).get(Topics.ENTRIES);
        NewTopic output = new NewTopic(topic, Optional.of(entries.partitions().size()),
                Optional.of((short) entries.partitions().get(0).replicas().size()));
        admin.createTopics(List.of(output)).all().get(30, TimeUnit.SECONDS);
    }

    private static void awaitRunning(KafkaStreams streams, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
                    || System.nanoTime() > deadline) {
                throw new IllegalStateException("the framework floor did not reach RUNNING (state " + streams.state() + ")");
            }
            Thread.sleep(50);
        }
    }
}
