package io.jolt.stream.archive.service;

import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistry;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The archive service's topology: {@code jolt.archive.v2} (or a mirror of it) in, two index stores of its own out,
 * and no sink. It reads no live topic, writes no topic but its stores' changelogs, and holds
 * locations, not entries: the archive stays the one copy of the history.
 */
public final class ArchiveIndexTopology {
    /** identity, partition, offset → time, kind, path. */
    public static final String IDENTITY_INDEX = "archive-identity-index";
    /** identity, path, partition, offset → time, kind, path. */
    public static final String PATH_INDEX = "archive-path-index";
    static final String SOURCE = "archive";
    static final String INDEXER = "archive-indexer";

    private ArchiveIndexTopology() {}

    /** The index of {@code jolt.archive.v2}. */
    public static Topology build(SchemaRegistry registry, IndexCounts counts) {
        return build(Topics.ARCHIVE, registry, counts);
    }

    /** The index of an archive topic under another name (a mirror of it, for instance). */
    public static Topology build(String archiveTopic, SchemaRegistry registry, IndexCounts counts) {
        Topology topology = new Topology();
        topology.addSource(SOURCE, Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), archiveTopic);
        topology.addProcessor(INDEXER, () -> new ArchiveIndexer(registry, counts), SOURCE);
        topology.addStateStore(store(IDENTITY_INDEX), INDEXER);
        topology.addStateStore(store(PATH_INDEX), INDEXER);
        return topology;
    }

    private static StoreBuilder<KeyValueStore<Bytes, byte[]>> store(String name) {
        // No cache: every put goes to RocksDB and its changelog at once, and a query sees it after the commit.
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray()).withCachingDisabled();
    }
}
