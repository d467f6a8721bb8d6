package io.jolt.stream.archive.replay;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bolt on a real broker: one Insert or Remove per eligible entry, never a Compact, a replay
 * of an identity merges (by the protocol core) to the live state for the same input, and a replay
 * as of an earlier archive offset to the merge of the input's prefix.
 */
@ExtendWith(RealKafka.class)
class ArchiveReplayIT {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theArchiveHoldsEveryEligibleEntryOnceAndReplaysToTheLiveState(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<String> kinds = List.of("simple", "concurrent", "tombstone", "heads", "appends");
        List<VectorRecords> records = new ArrayList<>();
        for (String kind : kinds) {
            records.addAll(VectorRecords.of(kind, registry));
        }
        // Authority first, then each device's entries in sequence: no fork switch, so nothing is compacted.
        records.sort(Comparator.comparing((VectorRecords r) -> r.topic().equals("jolt.authority.v2") ? 0 : 1)
                .thenComparing(r -> r.record() instanceof Entry e ? e.sequence() : 0L, Long::compareUnsigned));
        JoltConfig config = harness.config("jolt-it-archive", StreamHarness.tempStateDir("archive"), 1);
        List<RecordMetadata> produced;
        try (var service = harness.start(config, registry)) {
            produced = harness.produce(records);
            harness.awaitProcessed("jolt-it-archive", Duration.ofSeconds(60));
            service.bolt().flush();
        }
        ArchiveReplay replay = new ArchiveReplay(broker.bootstrapServers(), registry);
        List<ArchiveReplay.Archived> all = replay.read(null, null, null);
        Set<String> dots = new HashSet<>();
        for (ArchiveReplay.Archived a : all) {
            assertThat(dots.add(a.identity() + "/" + a.entry().deviceId() + "/" + a.entry().sequence())).as("one operation per dot").isTrue();
            boolean tombstone = a.entry().body().operation() instanceof Operation.TombstonePath;
            assertThat(a.kind()).isEqualTo(tombstone ? ArchiveKind.REMOVE : ArchiveKind.INSERT);
        }
        int eligible = 0;
        for (String kind : kinds) {
            for (JsonNode identity : JSON.readTree(Vectors.expected(kind).toFile())) {
                String id = identity.get("identity").asText();
                for (JsonNode device : identity.get("devices")) {
                    eligible += device.get("head_sequence").isNull() ? 0 : device.get("head_sequence").asInt() + 1;
                }
                List<Entry> archived = replay.read(id, null, null).stream().map(ArchiveReplay.Archived::entry).toList();
                JsonNode replayed = JSON.readTree(MergedStateJson.write(IdentityAssembler.fromEligible(id, archived)));
                assertThat(replayed.get("singletons")).as(kind + " " + id).isEqualTo(identity.get("singletons"));
                assertThat(replayed.get("appends")).as(kind + " " + id).isEqualTo(identity.get("appends"));
                assertThat(replayed.get("required_operation_level")).isEqualTo(identity.get("required_operation_level"));
            }
        }
        assertThat(all).hasSize(eligible);

        // As of an earlier archive offset, the replay is the merge of the input up to the entry archived there.
        ArchiveReplay.Archived cut = all.get(all.size() / 2);
        long inputCut = -1;
        for (int i = 0; i < records.size(); i++) {
            if (records.get(i).record() instanceof Entry e && e.equals(cut.entry())) {
                inputCut = produced.get(i).offset();
            }
        }
        Map<String, List<Object>> prefix = new TreeMap<>();
        for (int i = 0; i < records.size(); i++) {
            VectorRecords r = records.get(i);
            if (r.topic().equals(Topics.AUTHORITY) || produced.get(i).offset() <= inputCut) {
                prefix.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.record());
            }
        }
        for (Map.Entry<String, List<Object>> identity : prefix.entrySet()) {
            List<Object> recs = identity.getValue();
            MergedState merged = IdentityAssembler.assemble(identity.getKey(),
                    recs.stream().filter(AuthorityRecord.class::isInstance).map(AuthorityRecord.class::cast).toList(),
                    recs.stream().filter(Entry.class::isInstance).map(e -> (EntryInput) new EntryInput.Signed((Entry) e)).toList(), SignatureCheck.DEFINITION);
            List<Entry> archivedThen = replay.read(identity.getKey(), cut.offset(), null).stream().map(ArchiveReplay.Archived::entry).toList();
            JsonNode replayed = JSON.readTree(MergedStateJson.write(IdentityAssembler.fromEligible(identity.getKey(), archivedThen)));
            JsonNode expectedThen = JSON.readTree(MergedStateJson.write(merged));
            assertThat(replayed.get("singletons")).as("as of archive offset " + cut.offset() + ": " + identity.getKey())
                    .isEqualTo(expectedThen.get("singletons"));
            assertThat(replayed.get("appends")).isEqualTo(expectedThen.get("appends"));
        }
    }

    /**
     * Every scenario in reverse (entries before their Authorize, successors before predecessors),
     * with a held bound of 3 and superseded history kept for no time at all: the live side
     * forgets (held entries dropped, branches switched, superseded values swept away),
     * while the archive keeps exactly one Insert/Remove for every entry that was ever eligible,
     * and none for an entry that never was.
     */
    @Test
    void theArchiveKeepsWhatTheLiveSideForgets(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        List<VectorRecords> records = new ArrayList<>();
        for (String kind : Vectors.kinds()) {
            records.addAll(VectorRecords.of(kind, registry));
        }
        Collections.reverse(records);
        JoltConfig config = harness.config("jolt-it-forget", StreamHarness.tempStateDir("forget"), 1)
                .with(JoltConfig.HELD_MAX, "3")
                .with(JoltConfig.SUPERSEDED_RETENTION_MS, "0") // every superseded value of the vectors is old enough
                .with(JoltConfig.SWEEP_INTERVAL_MS, "500");
        List<Compaction> compactions;
        try (var service = harness.start(config, registry)) {
            harness.produce(records);
            harness.awaitProcessed("jolt-it-forget", Duration.ofSeconds(90));
            compactions = awaitCompaction(harness, registry, CompactionCause.SUPERSEDED_RETENTION, Duration.ofSeconds(30));
            service.bolt().flush();
        }

        assertThat(compactions).extracting(Compaction::getCause).as("the live side forgot")
                .contains(CompactionCause.HELD_BOUND, CompactionCause.SUPERSEDED_RETENTION);
        Set<String> dropped = new HashSet<>();
        Set<String> switchedAway = new HashSet<>();
        compactions.stream().filter(c -> c.getCause() != CompactionCause.SUPERSEDED_RETENTION)
                .forEach(c -> (c.getCause() == CompactionCause.HELD_BOUND ? dropped : switchedAway)
                        .add(c.getIdentity() + "/" + c.getDeviceId() + "#" + c.getDeviceSequence() + ":" + Hex.encode(c.getEntryHash().bytes())));

        // The live state is the merge of the records kept: what the bound dropped counts as never received.
        Map<String, List<Object>> kept = new TreeMap<>();
        for (VectorRecords r : records) {
            if (!(r.record() instanceof Entry e && dropped.contains(dot(r.key(), e)))) {
                kept.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.record());
            }
        }
        Set<String> everEligible = new HashSet<>(switchedAway);
        kept.forEach((identity, recs) -> {
            MergedState state = IdentityAssembler.assemble(identity,
                    recs.stream().filter(AuthorityRecord.class::isInstance).map(AuthorityRecord.class::cast).toList(),
                    recs.stream().filter(Entry.class::isInstance).map(e -> (EntryInput) new EntryInput.Signed((Entry) e)).toList(), SignatureCheck.DEFINITION);
            state.deviceLogs().forEach(log -> log.eligible().forEach(e -> everEligible.add(dot(identity, e))));
        });

        List<String> archived = new ArrayList<>();
        for (ArchiveReplay.Archived a : new ArchiveReplay(broker.bootstrapServers(), registry).read(null, null, null)) {
            assertThat(a.kind()).isIn(ArchiveKind.INSERT, ArchiveKind.REMOVE);
            archived.add(dot(a.identity(), a.entry()));
        }
        assertThat(archived).as("one operation per entry ever eligible").doesNotHaveDuplicates();
        assertThat(new HashSet<>(archived)).isEqualTo(everEligible);
        Set<String> archivedAndDropped = new HashSet<>(archived);
        archivedAndDropped.retainAll(dropped);
        assertThat(switchedAway).as("an archived entry later dropped while held had been eligible, then switched away (a revocation)")
                .containsAll(archivedAndDropped);
    }

    /** The compactions reported once one of {@code cause} is among them (a sweep runs on wall-clock time). */
    private static List<Compaction> awaitCompaction(StreamHarness harness, InMemorySchemaRegistry registry, CompactionCause cause, Duration timeout) {
        return await("the live side forgot: a " + cause + " compaction").atMost(timeout).pollInterval(Duration.ofMillis(250))
                .until(() -> harness.readAll(Topics.COMPACTIONS, new StringDeserializer(),
                        new ConfluentAvroSerde<Compaction>(registry, Compaction.getClassSchema())).stream().map(r -> r.value()).toList(),
                        all -> all.stream().anyMatch(c -> c.getCause() == cause));
    }

    private static String dot(String identity, Entry e) {
        return identity + "/" + e.deviceId() + "#" + e.sequence() + ":" + e.hash().hex();
    }
}
