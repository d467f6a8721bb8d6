package io.jolt.stream.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.TopicGuard;
import io.jolt.stream.kafka.TopicSchemas;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.VectorRecords;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DeviceLog;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.testing.DelayedAcknowledgements;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.workload.Workload;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bolt's crash window is closed: a `jolt run` JVM whose archive acknowledgements are held back
 * for seconds is killed with SIGKILL the moment its input offsets are committed, and every entry
 * eligible in the merge of the input is nevertheless in the archive or named on the losses topic.
 * (Before the commit waited for the bolt, the offsets committed with the archive writes still in
 * flight, and the kill lost them without a name.)
 */
@ExtendWith(RealKafka.class)
class ArchiveCrashWindowIT {
    static final String APPLICATION = "jolt-it-crash-window";

    @Test
    void killedRightAfterItsCommitTheServiceHasArchivedOrNamedEveryEligibleEntry(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(2, null)); // as the service will find them
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        Workload.Generated workload = Workload.generate(new Workload.Shape(40, 3, 8, 5), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        harness.produce(VectorRecords.ofRecords(records, registry));

        Process service = startService(broker, StreamHarness.tempStateDir("crash-window"));
        try {
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(120));
        } finally {
            service.destroyForcibly(); // SIGKILL: no clean close, no flush
            assertThat(service.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        Set<String> archived = new HashSet<>();
        ConfluentAvroSerde<ArchiveRecord> archive = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
        List<String> operations = new ArrayList<>();
        harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer()).forEach(r -> {
            ArchiveRecord a = archive.deserialize(r.topic(), r.value());
            operations.add(dot(a.getIdentity(), a.getDeviceId(), a.getDeviceSequence(), a.getEntryHash().bytes()));
        });
        archived.addAll(operations);
        ConfluentAvroSerde<ArchiveLoss> losses = new ConfluentAvroSerde<>(registry, ArchiveLoss.getClassSchema());
        harness.readAll(Topics.ARCHIVE_LOSSES, new StringDeserializer(), new ByteArrayDeserializer()).forEach(r -> {
            ArchiveLoss l = losses.deserialize(r.topic(), r.value());
            archived.add(dot(l.getIdentity(), l.getDeviceId(), l.getDeviceSequence(), l.getEntryHash().bytes()));
        });

        Set<String> eligible = eligibleDots(records);
        assertThat(eligible).hasSizeGreaterThan(500);
        assertThat(archived).as("every eligible entry is in the archive or named as lost").containsAll(eligible);
        System.out.printf("[crash window] %d eligible entries, %d archive operations, %d repeated%n", eligible.size(), operations.size(),
                operations.size() - new HashSet<>(operations).size());
    }

    /** `jolt run` in a JVM of its own, the bolt's acknowledgements held back by {@link DelayedAcknowledgements}. */
    private static Process startService(KafkaBroker broker, Path stateDir) throws Exception {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        p.setProperty("application.id", APPLICATION);
        p.setProperty("state.dir", stateDir.toString());
        p.setProperty("num.stream.threads", "1");
        p.setProperty("auto.offset.reset", "earliest");
        p.setProperty(JoltConfig.TOPIC_PARTITIONS, "2");
        p.setProperty("jolt.http.port", "0");
        p.setProperty(JoltConfig.BOLT_PRODUCER_PREFIX + "interceptor.classes", DelayedAcknowledgements.class.getName());
        Path config = Files.createTempFile("crash-window", ".properties");
        try (Writer out = Files.newBufferedWriter(config)) {
            p.store(out, "ArchiveCrashWindowIT");
        }
        Path log = Path.of("target", "crash-window-service.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djolt.test.ack.delay.ms=4000", "-cp", System.getProperty("java.class.path"), "io.jolt.stream.cli.JoltCommand",
                "run", "--config", config.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JOLT_LOG_FILE", log.resolveSibling("crash-window-service-full.log").toString());
        return builder.start();
    }

    /** The dots of every entry eligible in the core's merge of the records, identity by identity. */
    private static Set<String> eligibleDots(List<Object> records) {
        Map<String, List<AuthorityRecord>> authority = new LinkedHashMap<>();
        Map<String, List<EntryInput>> entries = new LinkedHashMap<>();
        for (Object r : records) {
            if (r instanceof AuthorityRecord a) {
                authority.computeIfAbsent(a.body().identity(), k -> new ArrayList<>()).add(a);
            } else {
                Entry e = (Entry) r;
                entries.computeIfAbsent(e.body().identity(), k -> new ArrayList<>()).add(new EntryInput.Signed(e));
            }
        }
        Set<String> out = new HashSet<>();
        authority.forEach((identity, auth) -> {
            for (DeviceLog log : IdentityAssembler.assemble(identity, auth, entries.getOrDefault(identity, List.of())).deviceLogs()) {
                log.eligible().forEach(e -> out.add(dot(identity, e.deviceId(), e.sequence(), e.hash().bytes())));
            }
        });
        return out;
    }

    private static String dot(String identity, String device, long sequence, byte[] hash) {
        return identity + "/" + device + "/" + Long.toUnsignedString(sequence) + "/" + Hex.encode(hash);
    }
}
