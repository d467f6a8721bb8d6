package io.jolt.stream.bench;

import io.jolt.stream.avro.AuthorityRecord;
import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.processor.InputDecoder;
import io.jolt.stream.processor.store.Source;
import io.jolt.stream.processor.store.StoreKey;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The framework floor: the smallest honest Kafka Streams application over the service's inputs.
 * Each record of jolt.authority.v2 and jolt.entries.v2 is decoded by the service's own
 * {@link InputDecoder}, put once into a persistent (RocksDB), changelogged store keyed like the
 * service's stores (identity, then the record's hash), and sent once, as it came, to an output
 * topic of its own. What the service does beyond this (rules, Ed25519, merging, its other stores
 * and outputs, the archive, the analytics) is what the bench's floor ratio measures.
 */
public final class FloorTopology {
    static final String SOURCE = "floor-inputs";
    static final String PROCESSOR = "floor-processor";
    static final String SINK = "floor-output";
    /** The one store; its changelog is {@code <application id>-floor-records-changelog}. */
    static final String STORE = "floor-records";

    private FloorTopology() {}

    public static Topology build(SchemaRegistry registry, String outputTopic) {
        ConfluentAvroSerde<AuthorityRecord> authority = new ConfluentAvroSerde<>(registry, AuthorityRecord.getClassSchema());
        ConfluentAvroSerde<DeviceWriterEntry> entries = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());
        Topology topology = new Topology();
        // One source over both inputs, as the service's two feed one processor: one task per partition reads both.
        topology.addSource(SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), Topics.AUTHORITY, Topics.ENTRIES);
        topology.addProcessor(PROCESSOR, () -> new FloorProcessor(new InputDecoder(authority, entries)), SOURCE);
        // Uncached, as the service's entries store: a cache folds only rewrites of a key, and every key here is new.
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.Bytes(), Serdes.ByteArray())
                .withCachingDisabled(), PROCESSOR);
        topology.addSink(SINK, outputTopic, Serdes.String().serializer(), Serdes.ByteArray().serializer(), PROCESSOR);
        return topology;
    }

    /** Decode, one put, one output record. */
    private static final class FloorProcessor implements Processor<String, byte[], String, byte[]> {
        private final InputDecoder decoder;
        private ProcessorContext<String, byte[]> context;
        private KeyValueStore<Bytes, byte[]> store;

        FloorProcessor(InputDecoder decoder) {
            this.decoder = decoder;
        }

        @Override
        public void init(ProcessorContext<String, byte[]> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, byte[]> record) {
            RecordMetadata meta = context.recordMetadata().orElseThrow();
            Source source = new Source(meta.topic(), meta.partition(), meta.offset());
            store.put(keyOf(decoder.decode(record.key(), record.value(), source), source), record.value());
            context.forward(record);
        }

        private static Bytes keyOf(InputDecoder.Decoded decoded, Source source) {
            if (decoded instanceof InputDecoder.EntryInput e) {
                return StoreKey.of(e.entry().body().identity()).hash(e.entry().hash()).toBytes();
            }
            if (decoded instanceof InputDecoder.AuthorityInput a) {
                return StoreKey.of(a.record().body().identity()).hash(a.record().hash()).toBytes();
            }
            // Not a record of its topic (a bench's workload has none): it has no hash, so it is kept under where it came from.
            return StoreKey.of(source.topic()).uint64(source.partition()).uint64(source.offset()).toBytes();
        }
    }
}
