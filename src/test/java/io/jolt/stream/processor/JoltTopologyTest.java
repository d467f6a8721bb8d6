package io.jolt.stream.processor;

import static io.jolt.stream.processor.TopologyFixture.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Rejection;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorConformanceJson;
import io.jolt.stream.wire.VectorRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The topology on TopologyTestDriver: every vector kind, in file order and reversed. */
class JoltTopologyTest {
    static Stream<String> kinds() {
        return Vectors.kinds().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void finalStateTableEqualsExpectedSingletonsInFileOrderAndReversed(String kind) throws Exception {
        List<VectorRecords> records = VectorRecords.of(kind, TopicSchemas.seededRegistry());
        List<VectorRecords> reversed = new ArrayList<>(records);
        Collections.reverse(reversed);

        assertThat(topology().given(records).whenProcessed().state()).as("file order").isEqualTo(MergedTable.expected(kind));
        assertThat(topology().given(reversed).whenProcessed().state()).as("reversed").isEqualTo(MergedTable.expected(kind));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyFinalRejectionIsReportedWithItsReason(String kind) {
        List<VectorRecords> records = VectorRecords.of(kind, TopicSchemas.seededRegistry());
        Set<String> reported = new HashSet<>();
        for (RejectedRecord r : topology().given(records).whenProcessed().rejected()) {
            reported.add(r.getIdentity() + " " + (r.getEntryHash() == null ? null : Hex.encode(r.getEntryHash().bytes())) + " " + r.getReason());
        }
        assertThat(reported).containsAll(finalRejections(records));
    }

    @Test
    void theTopologyDescriptionMatchesTheGoldenFile() throws Exception {
        String described = JoltTopology.build(TopicSchemas.seededRegistry(), op -> { }, SignatureCheck.DEFINITION).describe().toString();
        Path golden = Path.of("topology", "topology.txt");
        if (Boolean.getBoolean("jolt.updateGolden")) {
            Files.writeString(golden, described);
        }
        assertThat(described).as("topology/topology.txt (regenerate with -Djolt.updateGolden=true)").isEqualTo(Files.readString(golden));
    }

    @Test
    void theArchiveIsOnlyEverWrittenAndNothingReadsItBack() {
        var description = JoltTopology.build(TopicSchemas.seededRegistry(), op -> { }, SignatureCheck.DEFINITION).describe();
        description.subtopologies().forEach(sub -> sub.nodes().forEach(node -> {
            if (node instanceof org.apache.kafka.streams.TopologyDescription.Source source) {
                assertThat(source.topicSet()).doesNotContain(Topics.ARCHIVE);
            }
        }));
    }

    /** The analytics count the bolt's losses; what they read goes only to the counts, never to the live side. */
    @Test
    void theArchiveLossesAreOnlyCountedNeverFedBack() {
        var description = JoltTopology.build(TopicSchemas.seededRegistry(), op -> { }, SignatureCheck.DEFINITION).describe();
        description.subtopologies().stream()
                .filter(sub -> sub.nodes().stream().anyMatch(n -> n instanceof org.apache.kafka.streams.TopologyDescription.Source s
                        && s.topicSet().contains(Topics.ARCHIVE_LOSSES)))
                .forEach(sub -> {
                    assertThat(sub.nodes()).extracting(org.apache.kafka.streams.TopologyDescription.Node::name).doesNotContain(JoltTopology.IDENTITY_PROCESSOR);
                    sub.nodes().stream().filter(org.apache.kafka.streams.TopologyDescription.Sink.class::isInstance)
                            .map(n -> ((org.apache.kafka.streams.TopologyDescription.Sink) n).topic())
                            .forEach(topic -> assertThat(topic).isEqualTo("analytics-facts-repartition"));
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void theBoltGetsOneInsertOrRemovePerEligibleEntryInFileOrder(String kind) throws Exception {
        List<ArchiveRecord> archive = topology().given(VectorRecords.of(kind, TopicSchemas.seededRegistry())).whenProcessed().archive();

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

    /** "identity hash reason" of every rejection in the core's merge of each identity's records. */
    private static Set<String> finalRejections(List<VectorRecords> records) {
        Map<String, List<Object>> byIdentity = new LinkedHashMap<>();
        for (VectorRecords r : records) {
            byIdentity.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.record());
        }
        Set<String> expected = new HashSet<>();
        byIdentity.forEach((identity, recs) -> {
            List<AuthorityRecord> auth = recs.stream().filter(AuthorityRecord.class::isInstance).map(AuthorityRecord.class::cast).toList();
            List<EntryInput> entries = recs.stream().filter(Entry.class::isInstance).map(e -> (EntryInput) new EntryInput.Signed((Entry) e)).toList();
            MergedState state = IdentityAssembler.assemble(identity, auth, entries, SignatureCheck.DEFINITION);
            for (Rejection row : state.rejected()) {
                expected.add(identity + " " + row.entryHash().hex() + " " + RejectionKind.valueOf(row.reason().name()));
            }
        });
        return expected;
    }
}
