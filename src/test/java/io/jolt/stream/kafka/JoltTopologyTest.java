package io.jolt.stream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.Vectors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The topology on TopologyTestDriver: every vector kind, in file order and reversed. */
public class JoltTopologyTest {
    static Stream<String> kinds() {
        return Vectors.kinds().stream();
    }

    /** What the driver produced, read back. */
    public record Outputs(Map<String, StateChange> state, List<RejectedRecord> rejected, List<ArchiveRecord> archive,
            List<io.jolt.stream.avro.Compaction> compactions) {}

    static Outputs run(List<VectorRecords> records) {
        return run(records, InMemorySchemaRegistry.seeded());
    }

    public static Outputs run(List<VectorRecords> records, io.jolt.stream.kafka.serde.SchemaRegistry registry) {
        return run(records, registry, LiveForgetting.DEFAULT);
    }

    static Outputs run(List<VectorRecords> records, io.jolt.stream.kafka.serde.SchemaRegistry registry, LiveForgetting forgetting) {
        return run(records, registry, forgetting, driver -> { });
    }

    /** Runs the records, then lets {@code inspect} read the driver's state stores before it closes. */
    static Outputs run(List<VectorRecords> records, io.jolt.stream.kafka.serde.SchemaRegistry registry, LiveForgetting forgetting,
            java.util.function.Consumer<TopologyTestDriver> inspect) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-topology-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/driver-state");
        List<ArchiveRecord> archive = new java.util.ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(JoltTopology.build(registry, archive::add, forgetting), props)) {
            Map<String, TestInputTopic<String, byte[]>> inputs = Map.of(
                    Topics.AUTHORITY, driver.createInputTopic(Topics.AUTHORITY, Serdes.String().serializer(), Serdes.ByteArray().serializer()),
                    Topics.ENTRIES, driver.createInputTopic(Topics.ENTRIES, Serdes.String().serializer(), Serdes.ByteArray().serializer()));
            for (VectorRecords r : records) {
                inputs.get(r.topic()).pipeInput(r.key(), r.value());
            }
            TestOutputTopic<byte[], StateChange> state = driver.createOutputTopic(Topics.STATE, Serdes.ByteArray().deserializer(),
                    new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()));
            Map<String, StateChange> table = new TreeMap<>();
            state.readKeyValuesToList().forEach(kv -> table.put(kv.value.getIdentity() + "|" + kv.value.getPath(), kv.value));
            List<RejectedRecord> rejected = driver.createOutputTopic(Topics.REJECTED, Serdes.String().deserializer(),
                    new ConfluentAvroSerde<RejectedRecord>(registry, RejectedRecord.getClassSchema())).readValuesToList();
            List<io.jolt.stream.avro.Compaction> compactions = driver.createOutputTopic(Topics.COMPACTIONS, Serdes.String().deserializer(),
                    new ConfluentAvroSerde<io.jolt.stream.avro.Compaction>(registry, io.jolt.stream.avro.Compaction.getClassSchema())).readValuesToList();
            inspect.accept(driver);
            return new Outputs(table, rejected, archive, compactions);
        }
    }

    /** The final state table as identity|path → "state content_id head_device#seq:hash conflicts". */
    public static Map<String, String> liveTable(Map<String, StateChange> state) {
        Map<String, String> out = new TreeMap<>();
        state.forEach((key, change) -> {
            if (change.getState() != PathState.NOT_FOUND) {
                out.put(key, change.getState().name().toLowerCase() + " " + change.getContentId() + " " + change.getHead().getDeviceId() + "#"
                        + Long.toUnsignedString(change.getHead().getDeviceSequence()) + ":" + Hex.encode(change.getHead().getEntryHash().bytes())
                        + " conflicts=" + change.getConflictCount());
            }
        });
        return out;
    }

    public static Map<String, String> expectedTable(String kind) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (var identity : VectorConformanceJson.read(Vectors.expected(kind))) {
            for (var s : identity.get("singletons")) {
                var head = s.get("head");
                out.put(identity.get("identity").asText() + "|" + s.get("path").asText(),
                        s.get("state").asText() + " " + (s.get("content_id").isNull() ? "null" : s.get("content_id").asText()) + " "
                                + head.get("device_id").asText() + "#" + head.get("device_sequence").bigIntegerValue() + ":"
                                + head.get("entry_hash").asText() + " conflicts=" + s.get("conflicts").size());
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void finalStateTableEqualsExpectedSingletonsInFileOrderAndReversed(String kind) throws Exception {
        List<VectorRecords> records = VectorRecords.of(kind, InMemorySchemaRegistry.seeded());
        Map<String, String> expected = expectedTable(kind);
        assertThat(liveTable(run(records).state())).as("file order").isEqualTo(expected);
        List<VectorRecords> reversed = new ArrayList<>(records);
        Collections.reverse(reversed);
        assertThat(liveTable(run(reversed).state())).as("reversed").isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyFinalRejectionIsReportedWithItsReason(String kind) {
        List<VectorRecords> records = VectorRecords.of(kind, InMemorySchemaRegistry.seeded());
        Set<String> reported = new HashSet<>();
        for (RejectedRecord r : run(records).rejected()) {
            reported.add(r.getIdentity() + " " + (r.getEntryHash() == null ? null : Hex.encode(r.getEntryHash().bytes())) + " " + r.getReason());
        }
        Map<String, List<Object>> byIdentity = new LinkedHashMap<>();
        for (VectorRecords r : records) {
            byIdentity.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.record());
        }
        Set<String> expected = new HashSet<>();
        byIdentity.forEach((identity, recs) -> {
            List<AuthorityRecord> auth = recs.stream().filter(AuthorityRecord.class::isInstance).map(AuthorityRecord.class::cast).toList();
            List<EntryInput> entries = recs.stream().filter(Entry.class::isInstance).map(e -> (EntryInput) new EntryInput.Signed((Entry) e)).toList();
            MergedState state = IdentityAssembler.assemble(identity, auth, entries);
            for (Rejection row : state.rejected()) {
                expected.add(identity + " " + row.entryHash().hex() + " " + RejectionKind.valueOf(row.reason().name()));
            }
        });
        assertThat(reported).containsAll(expected);
    }

    @Test
    void theTopologyDescriptionMatchesTheGoldenFile() throws Exception {
        String described = JoltTopology.build(InMemorySchemaRegistry.seeded(), op -> { }).describe().toString();
        Path golden = Path.of("topology", "topology.txt");
        if (Boolean.getBoolean("jolt.updateGolden")) {
            Files.writeString(golden, described);
        }
        assertThat(described).as("topology/topology.txt (regenerate with -Djolt.updateGolden=true)").isEqualTo(Files.readString(golden));
    }

    @Test
    void theArchiveIsOnlyEverWrittenAndNothingReadsItBack() {
        var description = JoltTopology.build(InMemorySchemaRegistry.seeded(), op -> { }).describe();
        description.subtopologies().forEach(sub -> sub.nodes().forEach(node -> {
            if (node instanceof org.apache.kafka.streams.TopologyDescription.Source source) {
                assertThat(source.topicSet()).doesNotContain(Topics.ARCHIVE, "jolt.archive.losses.v1");
            }
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void theBoltGetsOneInsertOrRemovePerEligibleEntryInFileOrder(String kind) throws Exception {
        List<VectorRecords> records = VectorRecords.of(kind, InMemorySchemaRegistry.seeded());
        List<ArchiveRecord> archive = run(records).archive();
        Set<String> dots = new HashSet<>();
        archive.forEach(a -> dots.add(a.getIdentity() + "/" + a.getDeviceId() + "/" + a.getDeviceSequence() + "/"
                + Hex.encode(a.getEntryHash().bytes())));
        assertThat(dots).as("no operation twice").hasSize(archive.size());
        for (var identity : VectorConformanceJson.read(Vectors.expected(kind))) {
            for (var device : identity.get("devices")) {
                if (!device.get("head_hash").isNull()) {
                    assertThat(dots).as("the eligible head is archived").contains(identity.get("identity").asText() + "/"
                            + device.get("device_id").asText() + "/" + device.get("head_sequence").bigIntegerValue().longValue() + "/"
                            + device.get("head_hash").asText());
                }
            }
        }
    }
}
