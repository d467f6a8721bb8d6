package io.jolt.stream.processor;

import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.store.IdentityStoreView;
import io.jolt.stream.processor.store.StoreName;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Uint64;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The topology on {@link TopologyTestDriver}, given / when / then: given the records on the input
 * topics (protocol values or topic records), when a fresh topology has processed them, then its
 * outcome, read back as typed values: the final resolution of every identity and path, the
 * rejections, the archive operations, what was forgotten.
 *
 * <pre>
 * Outcome out = TopologyFixture.topology().withForgetting(TEN)
 *         .given(authorizeA, e0, e1)
 *         .whenProcessed();
 * assertThat(out.state()).isEqualTo(MergedTable.of(authorizeA, e0, e1));
 * </pre>
 */
public final class TopologyFixture {
    private final ForgettingPolicy forgetting;
    private final SchemaRegistry registry;

    private TopologyFixture(ForgettingPolicy forgetting, SchemaRegistry registry) {
        this.forgetting = forgetting;
        this.registry = registry;
    }

    /** The topology with the default forgetting and a seeded in-memory registry. */
    public static TopologyFixture topology() {
        return new TopologyFixture(ForgettingPolicy.DEFAULT, TopicSchemas.seededRegistry());
    }

    public TopologyFixture withForgetting(ForgettingPolicy policy) {
        return new TopologyFixture(policy, registry);
    }

    public TopologyFixture withRegistry(SchemaRegistry other) {
        return new TopologyFixture(forgetting, other);
    }

    /** An identity and one of its paths: the key of the state table. */
    public record IdentityPath(String identity, String path) implements Comparable<IdentityPath> {
        @Override
        public int compareTo(IdentityPath o) {
            int c = identity.compareTo(o.identity);
            return c != 0 ? c : path.compareTo(o.path);
        }
    }

    /** What the topology produced, read back. */
    public record Outcome(Map<IdentityPath, Resolution> state, List<StateChange> stateChanges, List<RejectedRecord> rejected,
            List<ArchiveRecord> archive, List<Compaction> compactions, List<ConflictEvent> conflicts) {
        /** The final resolution of a path (NotFound when the state topic has none, or its last says not found). */
        public Resolution resolution(String identity, String path) {
            return state.getOrDefault(new IdentityPath(identity, path), new Resolution.NotFound(path));
        }
    }

    /** Given: the records on the input topics, protocol values or {@link VectorRecords}, in the order they arrive. Nothing runs yet. */
    public Input given(Object... records) {
        return given(List.of(records));
    }

    public Input given(List<?> records) {
        return new Input(List.copyOf(records));
    }

    /** The records a topology is given, not yet processed. */
    public final class Input {
        private final List<?> records;

        private Input(List<?> records) {
            this.records = records;
        }

        /** When: a fresh topology processes the records, in the order given; then: everything it produced, read back. */
        public Outcome whenProcessed() {
            try (Running running = start()) {
                return running.when(records).outcome();
            }
        }
    }

    /** A running topology, for tests that interleave input with wall-clock time or read its stores. */
    public Running start() {
        return new Running();
    }

    public final class Running implements AutoCloseable {
        private final List<ArchiveRecord> archive = new ArrayList<>();
        private final TopologyTestDriver driver;
        private final TestInputTopic<String, byte[]> authority;
        private final TestInputTopic<String, byte[]> entries;
        private final List<StateChange> stateChanges = new ArrayList<>();
        private final List<RejectedRecord> rejected = new ArrayList<>();
        private final List<Compaction> compactions = new ArrayList<>();
        private final List<ConflictEvent> conflicts = new ArrayList<>();

        private Running() {
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-topology-test");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
            props.put(StreamsConfig.STATE_DIR_CONFIG, "target/driver-state");
            props.put("processing.exception.handler.global.enabled", "true"); // the driver warns on every start without it
            driver = new TopologyTestDriver(JoltTopology.build(registry, archive::add, forgetting, SignatureCheck.DEFINITION), props);
            authority = driver.createInputTopic(Topics.AUTHORITY, Serdes.String().serializer(), Serdes.ByteArray().serializer());
            entries = driver.createInputTopic(Topics.ENTRIES, Serdes.String().serializer(), Serdes.ByteArray().serializer());
        }

        /** Pipes records: protocol values (authority records, entries) or {@link VectorRecords}, in the order given. */
        public Running when(Object... records) {
            return when(List.of(records));
        }

        public Running when(List<?> records) {
            for (VectorRecords r : asTopicRecords(records)) {
                (r.topic().equals(Topics.AUTHORITY) ? authority : entries).pipeInput(r.key(), r.value());
            }
            return this;
        }

        public Running advanceWallClockTime(Duration duration) {
            driver.advanceWallClockTime(duration);
            return this;
        }

        /** Everything produced so far. */
        public Outcome outcome() {
            stateChanges.addAll(read(Topics.STATE, Serdes.ByteArray().deserializer(), StateChange.getClassSchema()));
            rejected.addAll(read(Topics.REJECTED, Serdes.String().deserializer(), RejectedRecord.getClassSchema()));
            compactions.addAll(read(Topics.COMPACTIONS, Serdes.String().deserializer(), Compaction.getClassSchema()));
            conflicts.addAll(read(Topics.CONFLICTS, Serdes.String().deserializer(), ConflictEvent.getClassSchema()));
            return new Outcome(table(stateChanges), List.copyOf(stateChanges), List.copyOf(rejected), List.copyOf(archive), List.copyOf(compactions),
                    List.copyOf(conflicts));
        }

        /** The processor's stores, as the interactive queries see them. */
        public IdentityStoreView stores() {
            return new IdentityStoreView(name -> driver.<Bytes, byte[]>getKeyValueStore(name.storeName()));
        }

        /** One store as the processor writes it: raw keys and values. */
        public KeyValueStore<Bytes, byte[]> store(StoreName name) {
            return driver.getKeyValueStore(name.storeName());
        }

        /** How many records one store holds. */
        public int count(StoreName name) {
            int n = 0;
            try (KeyValueIterator<Bytes, byte[]> it = store(name).all()) {
                for (; it.hasNext(); it.next()) {
                    n++;
                }
            }
            return n;
        }

        private <K, V extends SpecificRecord> List<V> read(String topic, Deserializer<K> keys, org.apache.avro.Schema schema) {
            return driver.createOutputTopic(topic, keys, new ConfluentAvroSerde<V>(registry, schema)).readValuesToList();
        }

        @Override
        public void close() {
            driver.close();
        }
    }

    private List<VectorRecords> asTopicRecords(List<?> records) {
        if (records.stream().noneMatch(VectorRecords.class::isInstance)) {
            return VectorRecords.ofRecords(records, registry); // one encoder for the whole list
        }
        List<VectorRecords> out = new ArrayList<>();
        for (Object r : records) {
            out.addAll(r instanceof VectorRecords raw ? List.of(raw) : VectorRecords.ofRecords(List.of(r), registry));
        }
        return out;
    }

    /** The final state table of a state topic read in order: each path's last resolution, without the paths not found. */
    public static Map<IdentityPath, Resolution> table(List<StateChange> changes) {
        Map<IdentityPath, Resolution> state = new TreeMap<>();
        for (StateChange change : changes) {
            IdentityPath key = new IdentityPath(change.getIdentity(), change.getPath());
            if (change.getState() == PathState.NOT_FOUND) {
                state.remove(key);
            } else {
                state.put(key, resolution(change));
            }
        }
        return state;
    }

    private static Resolution resolution(StateChange change) {
        Head head = new Head(change.getHead().getDeviceId(), Uint64.unsigned(change.getHead().getDeviceSequence(), "device_sequence"), Hash.of(change.getHead().getEntryHash().bytes()));
        return change.getState() == PathState.TOMBSTONED
                ? new Resolution.Tombstoned(change.getPath(), head, change.getConflictCount())
                : new Resolution.Present(change.getPath(), change.getContentId(), head, change.getConflictCount());
    }

}
