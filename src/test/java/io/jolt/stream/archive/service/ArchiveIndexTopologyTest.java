package io.jolt.stream.archive.service;

import io.jolt.stream.protocol.Uint64;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveKind;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.wire.AvroRecords;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Instant;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Given archived operations, expect the index to locate each identity's, and only its, in archive order. */
class ArchiveIndexTopologyTest {
    final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
    final ConfluentAvroSerde<ArchiveRecord> serde = new ConfluentAvroSerde<>(registry, ArchiveRecord.getClassSchema());
    final IndexCounts counts = new IndexCounts();
    final TestIdentity alice = TestIdentity.named("alice");
    final TestIdentity.Device phone = alice.device("phone");
    TopologyTestDriver driver;
    TestInputTopic<String, byte[]> archive;
    ArchiveIndex index;

    @BeforeEach
    void start() {
        Properties p = new Properties();
        p.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, "archive-index-test");
        p.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(ArchiveIndexTopology.build(registry, counts), p);
        archive = driver.createInputTopic(Topics.ARCHIVE, Serdes.String().serializer(), Serdes.ByteArray().serializer());
        index = new ArchiveIndex(driver::getKeyValueStore);
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void locatesOneIdentitysOperationsInArchiveOrderAndNoneOfAnIdentityItsNamePrefixes() {
        Entry title = phone.set("/title", "a");
        Entry body = phone.set("/body", "b");
        Entry retitled = phone.tombstone("/title", title.hash());
        archived("ab", ArchiveKind.INSERT, title, 1_000);   // offset 0
        archived("a", ArchiveKind.INSERT, body, 2_000);     // offset 1
        archived("ab", ArchiveKind.INSERT, body, 3_000);    // offset 2
        archived("ab", ArchiveKind.REMOVE, retitled, 4_000); // offset 3

        assertThat(index.locations("ab", null, null, null)).containsExactly(
                new ArchiveLocation(0, 0, 1_000, ArchiveKind.INSERT, "/title"),
                new ArchiveLocation(0, 2, 3_000, ArchiveKind.INSERT, "/body"),
                new ArchiveLocation(0, 3, 4_000, ArchiveKind.REMOVE, "/title"));
        assertThat(index.locations("a", null, null, null)).extracting(ArchiveLocation::offset).containsExactly(1L);
        assertThat(index.knows("abc")).isFalse();
        assertThat(counts.indexed()).isEqualTo(4);
    }

    @Test
    void answersAPathAndAsOfAnOffsetOrATimeFromTheIndexAlone() {
        Entry title = phone.set("/title", "a");
        Entry body = phone.set("/body", "b");
        Entry retitled = phone.set("/title", "c", title.hash());
        archived("alice", ArchiveKind.INSERT, title, 1_000);
        archived("alice", ArchiveKind.INSERT, body, 2_000);
        archived("alice", ArchiveKind.INSERT, retitled, 3_000);

        assertThat(index.locations("alice", "/title", null, null)).extracting(ArchiveLocation::offset).containsExactly(0L, 2L);
        assertThat(index.locations("alice", "/tit", null, null)).as("a path's prefix is another path").isEmpty();
        assertThat(index.locations("alice", null, 1L, null)).extracting(ArchiveLocation::offset).containsExactly(0L, 1L);
        assertThat(index.locations("alice", null, null, 2_999L)).extracting(ArchiveLocation::offset).containsExactly(0L, 1L);
    }

    @Test
    void anUnreadableArchiveRecordIsCountedAndSkippedAndTheNextIsIndexed() {
        archive.pipeInput("alice", new byte[] {0, 0, 0, 0, 42, 1}, Instant.ofEpochMilli(500));
        archive.pipeInput("alice", null, Instant.ofEpochMilli(600));
        archived("alice", ArchiveKind.INSERT, phone.set("/title", "a"), 1_000);

        assertThat(counts.unreadable()).isEqualTo(2);
        assertThat(index.locations("alice", null, null, null)).extracting(ArchiveLocation::offset).containsExactly(2L);
    }

    @Test
    void readsTheArchiveAloneAndWritesNoTopic() {
        Topology topology = ArchiveIndexTopology.build(registry, counts);
        Set<String> sources = new HashSet<>();
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                assertThat(node).as("no sink: the archive service writes no topic").isNotInstanceOf(TopologyDescription.Sink.class);
                if (node instanceof TopologyDescription.Source source) {
                    sources.addAll(source.topicSet());
                }
            }
        }
        assertThat(sources).containsExactly(Topics.ARCHIVE);
        assertThat(topology.describe().globalStores()).isEmpty();
    }

    private void archived(String identity, ArchiveKind kind, Entry entry, long time) {
        ArchiveRecord record = new ArchiveRecord(kind, identity, entry.deviceId(), Uint64.decimal(entry.sequence()), AvroRecords.hash32(entry.hash()),
                AvroRecords.entry(entry), "jolt.entries.v2", 0, 0L);
        archive.pipeInput(identity, serde.serialize(Topics.ARCHIVE, record), Instant.ofEpochMilli(time));
    }

}
