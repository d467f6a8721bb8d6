package io.jolt.stream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.TestIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Superseded singleton history past its retention: a sweep on wall-clock time forgets it, reports
 * it on jolt.compactions.v1, and the state stays exactly what the whole history gives.
 */
class SupersededRetentionTest {
    private static final LiveForgetting ONE_HOUR = LiveForgetting.DEFAULT.withSupersededRetention(Duration.ofHours(1), Duration.ofMinutes(1));

    private final InMemorySchemaRegistry registry = InMemorySchemaRegistry.seeded();
    private final List<ArchiveRecord> archive = new ArrayList<>();
    private final TopologyTestDriver driver;
    private final TestIdentity alice = TestIdentity.named("retention");
    private final AuthorityRecord authorizeA = alice.authorize("dev_a");
    private final TestIdentity.Device a = alice.device("dev_a");
    private final long now = System.currentTimeMillis();

    // Written long ago: /p twice, /q once, /p again. Then recently: /r twice.
    private final Entry p1 = a.writeAt(1, set("/p", "v1"));
    private final Entry p2 = a.writeAt(2, set("/p", "v2"));
    private final Entry q1 = a.writeAt(3, set("/q", "q1"));
    private final Entry p3 = a.writeAt(4, set("/p", "v3"));

    SupersededRetentionTest() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-retention-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/driver-state");
        driver = new TopologyTestDriver(JoltTopology.build(registry, archive::add, ONE_HOUR), props);
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void theSweepForgetsTheSupersededPrefixOlderThanTheRetentionAndTheStateStaysTheSame() {
        pipe(authorizeA, p1, p2, q1, p3);
        newStateChanges();

        driver.advanceWallClockTime(Duration.ofMinutes(2));

        assertThat(compactions()).extracting(Compaction::getDeviceSequence).containsExactly(0L, 1L);
        assertThat(compactions()).extracting(Compaction::getCause).containsOnly(CompactionCause.SUPERSEDED_RETENTION);
        assertThat(storedEntries()).as("q1 is /q's only value: the floor stops before it").isEqualTo(2);
        assertThat(newStateChanges()).as("forgetting superseded values changes no resolution").isEmpty();
        assertThat(archive).as("the archive keeps all four; a Compact never reaches it").hasSize(4);
    }

    @Test
    void valuesYoungerThanTheRetentionStay() {
        Entry r1 = a.writeAt(now, set("/p", "recent"));
        Entry r2 = a.writeAt(now, set("/p", "more recent"));
        pipe(authorizeA, r1, r2);

        driver.advanceWallClockTime(Duration.ofMinutes(2));

        assertThat(compactions()).isEmpty();
        assertThat(storedEntries()).isEqualTo(2);
    }

    @Test
    void afterForgettingNewEntriesMergeAsWithTheWholeHistoryAndForgottenOnesReceivedAgainAreIgnored() {
        pipe(authorizeA, p1, p2, q1, p3);
        driver.advanceWallClockTime(Duration.ofMinutes(2));
        Entry p4 = a.writeAt(5, set("/p", "v4"));
        Entry tombstoneQ = a.writeAt(6, new Operation.TombstonePath("/q"));
        pipe(p4, p1, tombstoneQ, p2);

        List<Object> whole = List.of(authorizeA, p1, p2, q1, p3, p4, tombstoneQ);
        newStateChanges();
        assertThat(JoltTopologyTest.liveTable(state)).isEqualTo(HotPathEquivalenceProperties.merged(lines(whole)));
        assertThat(storedEntries()).as("p1 and p2 again are dropped as forgotten history").isEqualTo(4);
        assertThat(archive).as("one operation per entry ever eligible").hasSize(6);
    }

    private void pipe(Object... records) {
        TestInputTopic<String, byte[]> authority = driver.createInputTopic(Topics.AUTHORITY, Serdes.String().serializer(), Serdes.ByteArray().serializer());
        TestInputTopic<String, byte[]> entries = driver.createInputTopic(Topics.ENTRIES, Serdes.String().serializer(), Serdes.ByteArray().serializer());
        for (VectorRecords r : VectorRecords.ofRecords(List.of(records), registry)) {
            (r.topic().equals(Topics.AUTHORITY) ? authority : entries).pipeInput(r.key(), r.value());
        }
    }

    /** The state table as read so far. */
    private final Map<String, StateChange> state = new TreeMap<>();

    /** What the state topic received since the last call; the table is updated with it. */
    private List<StateChange> newStateChanges() {
        List<StateChange> changes = driver.createOutputTopic(Topics.STATE, Serdes.ByteArray().deserializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema())).readValuesToList();
        changes.forEach(v -> state.put(v.getIdentity() + "|" + v.getPath(), v));
        return changes;
    }

    private final List<Compaction> compactionsSeen = new ArrayList<>();

    private List<Compaction> compactions() {
        compactionsSeen.addAll(driver.createOutputTopic(Topics.COMPACTIONS, Serdes.String().deserializer(),
                new ConfluentAvroSerde<Compaction>(registry, Compaction.getClassSchema())).readValuesToList());
        return compactionsSeen;
    }

    private int storedEntries() {
        int n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = driver.<Bytes, byte[]>getKeyValueStore(Stores.ENTRIES).all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private static Operation set(String path, String content) {
        return new Operation.SetPath(path, TestIdentity.cid(content), Operation.Mode.SINGLETON);
    }

    private static List<byte[]> lines(List<Object> records) {
        return records.stream().map(r -> (r instanceof AuthorityRecord x ? io.jolt.stream.protocol.json.RecordJson.write(x)
                : io.jolt.stream.protocol.json.RecordJson.write((Entry) r)).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList();
    }
}
