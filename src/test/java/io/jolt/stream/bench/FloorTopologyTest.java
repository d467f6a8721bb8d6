package io.jolt.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.processor.store.StoreKey;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.wire.InputEncoder;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The framework floor's topology on {@link TopologyTestDriver}: every input record, entry,
 * authority record or not a record at all, makes exactly one put into its persistent store (so
 * one changelog record) and one output record, the input as it came.
 */
class FloorTopologyTest {
    private static final String APPLICATION_ID = "floor-test";
    private static final String OUTPUT = APPLICATION_ID + "-output";
    private static final Workload.Generated ONE_IDENTITY = Workload.generate(new Workload.Shape(1, 1, 2, 7), n -> { });

    private final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
    private TopologyTestDriver driver;

    @BeforeEach
    void givenTheFloorTopology() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/floor-driver-state"); // the driver cleans it when closed
        props.put("processing.exception.handler.global.enabled", "true"); // the driver warns on every start without it
        driver = new TopologyTestDriver(FloorTopology.build(registry, OUTPUT), props);
    }

    @AfterEach
    void closeTheDriver() {
        driver.close();
    }

    @Test
    void anEntryIsPutOnceUnderItsIdentityAndHashAndSentOnce() {
        Entry entry = ONE_IDENTITY.entries().get(0);
        ProducerRecord<String, byte[]> input = new InputEncoder(registry).entry(entry);
        pipe(input);

        Bytes key = StoreKey.of(entry.body().identity()).hash(entry.hash()).toBytes();
        assertOnePutAndOneOutput(key, input);
    }

    @Test
    void anAuthorityRecordIsPutOnceUnderItsIdentityAndHashAndSentOnce() {
        AuthorityRecord record = ONE_IDENTITY.authority().get(0);
        ProducerRecord<String, byte[]> input = new InputEncoder(registry).authority(record);
        pipe(input);

        Bytes key = StoreKey.of(record.body().identity()).hash(record.hash()).toBytes();
        assertOnePutAndOneOutput(key, input);
    }

    @Test
    void aRecordThatDoesNotDecodeIsPutUnderWhereItCameFromAndSentOnce() {
        ProducerRecord<String, byte[]> input = new ProducerRecord<>(Topics.ENTRIES, "someone", new byte[] {1, 2, 3});
        pipe(input);

        Bytes key = StoreKey.of(Topics.ENTRIES).uint64(0).uint64(0).toBytes();
        assertOnePutAndOneOutput(key, input);
    }

    private void pipe(ProducerRecord<String, byte[]> record) {
        driver.createInputTopic(record.topic(), Serdes.String().serializer(), Serdes.ByteArray().serializer()).pipeInput(record.key(), record.value());
    }

    private void assertOnePutAndOneOutput(Bytes key, ProducerRecord<String, byte[]> input) {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(FloorTopology.STORE);
        assertThat(store.persistent()).as("RocksDB").isTrue();
        try (KeyValueIterator<Bytes, byte[]> all = store.all()) {
            assertThat(all.hasNext()).isTrue();
            KeyValue<Bytes, byte[]> put = all.next();
            assertThat(put.key).isEqualTo(key);
            assertThat(put.value).as("the input as it came").isEqualTo(input.value());
            assertThat(all.hasNext()).as("one put").isFalse();
        }

        List<KeyValue<Bytes, byte[]>> changelog = driver.createOutputTopic(APPLICATION_ID + "-" + FloorTopology.STORE + "-changelog",
                Serdes.Bytes().deserializer(), Serdes.ByteArray().deserializer()).readKeyValuesToList();
        assertThat(changelog).as("the put is logged, once").hasSize(1);
        assertThat(changelog.get(0).key).isEqualTo(key);

        List<KeyValue<String, byte[]>> output = driver.createOutputTopic(OUTPUT, Serdes.String().deserializer(), Serdes.ByteArray().deserializer())
                .readKeyValuesToList();
        assertThat(output).hasSize(1);
        assertThat(output.get(0).key).isEqualTo(input.key());
        assertThat(output.get(0).value).isEqualTo(input.value());
    }
}
