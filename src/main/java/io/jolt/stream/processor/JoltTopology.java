package io.jolt.stream.processor;

import io.jolt.stream.avro.AuthorityRecord;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.DeviceWriterEntry;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.store.StoreName;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The whole topology, built in one place (src/site/markdown/architecture.md, "Data flow"):
 *
 * <pre>
 * jolt.authority.v2 ─┐
 * jolt.entries.v2 ───┴─► identity-processor (verify, assemble, merge; RocksDB stores)
 *                          ├─► jolt.state.v2      resolution per identity|path (compacted)
 *                          ├─► jolt.conflicts.v2  losing active heads, equivocation evidence
 *                          ├─► jolt.rejected.v2   reason, rule, source offset, raw bytes of undecodable input
 *                          ├─► jolt.compactions.v2 what the live side forgot (held-bound evictions, fork switches)
 *                          └─► bolt-filter (drops Compact) ─► the bolt's own producer ─► jolt.archive.v2 (Insert / Remove only)
 *
 * jolt.conflicts.v2, jolt.rejected.v2, ─► facts ─► repartition by fact key ─► counts per minute, hour, in total
 * jolt.archive.losses.v2,                                                      (window stores) ─► jolt.analytics.v1
 * jolt.compactions.v2
 * </pre>
 *
 * Inputs are read as bytes and decoded by the processor, so a record that is not Avro (or names
 * an unknown schema id) becomes a rejected record with its offset instead of stopping the task.
 */
public final class JoltTopology {
    static final String AUTHORITY_SOURCE = "authority-source";
    static final String ENTRIES_SOURCE = "entries-source";
    static final String IDENTITY_PROCESSOR = "identity-processor";
    static final String STATE_SINK = "state-sink";
    static final String CONFLICTS_SINK = "conflicts-sink";
    static final String REJECTED_SINK = "rejected-sink";
    static final String COMPACTIONS_SINK = "compactions-sink";
    static final String BOLT_FILTER = "bolt-filter";

    private JoltTopology() {}

    /** The topology with the default bound on held entries. */
    public static Topology build(SchemaRegistry registry, Bolt bolt, SignatureCheck signatures) {
        return build(registry, bolt, ForgettingPolicy.DEFAULT, signatures);
    }

    /** The topology; its identity processors check signatures with {@code signatures}. */
    public static Topology build(SchemaRegistry registry, Bolt bolt, ForgettingPolicy forgetting, SignatureCheck signatures) {
        ConfluentAvroSerde<AuthorityRecord> authority = new ConfluentAvroSerde<>(registry, AuthorityRecord.getClassSchema());
        ConfluentAvroSerde<DeviceWriterEntry> entries = new ConfluentAvroSerde<>(registry, DeviceWriterEntry.getClassSchema());

        StreamsBuilder analytics = new StreamsBuilder();
        ConflictAnalytics.addTo(analytics, registry);
        Topology topology = analytics.build();
        topology.addSource(AUTHORITY_SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), Topics.AUTHORITY);
        topology.addSource(ENTRIES_SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), Topics.ENTRIES);
        topology.addProcessor(IDENTITY_PROCESSOR, () -> new IdentityProcessor(authority, entries, forgetting, signatures), AUTHORITY_SOURCE, ENTRIES_SOURCE);
        for (StoreName store : StoreName.values()) {
            StoreBuilder<KeyValueStore<Bytes, byte[]>> builder = Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(store.storeName()), Serdes.Bytes(), Serdes.ByteArray());
            topology.addStateStore(store.cached() ? builder.withCachingEnabled() : builder.withCachingDisabled(), IDENTITY_PROCESSOR);
        }
        topology.addSink(STATE_SINK, Topics.STATE, Serdes.ByteArray().serializer(),
                new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()), IDENTITY_PROCESSOR);
        topology.addSink(CONFLICTS_SINK, Topics.CONFLICTS, Serdes.String().serializer(),
                new ConfluentAvroSerde<ConflictEvent>(registry, ConflictEvent.getClassSchema()), IDENTITY_PROCESSOR);
        topology.addSink(REJECTED_SINK, Topics.REJECTED, Serdes.String().serializer(),
                new ConfluentAvroSerde<RejectedRecord>(registry, RejectedRecord.getClassSchema()), IDENTITY_PROCESSOR);
        topology.addSink(COMPACTIONS_SINK, Topics.COMPACTIONS, Serdes.String().serializer(),
                new ConfluentAvroSerde<Compaction>(registry, Compaction.getClassSchema()), IDENTITY_PROCESSOR);
        topology.addProcessor(BOLT_FILTER, () -> new BoltFilter(bolt), IDENTITY_PROCESSOR);
        return topology;
    }
}
