package io.jolt.stream.archive.service;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The index's read side (interactive queries on this instance's stores): one identity's locations, in archive order. */
final class ArchiveIndex {
    private final Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> stores;

    /** Over a store by name: interactive queries, or a test driver's stores. */
    ArchiveIndex(Function<String, ReadOnlyKeyValueStore<Bytes, byte[]>> stores) {
        this.stores = stores;
    }

    static ArchiveIndex of(KafkaStreams streams) {
        return new ArchiveIndex(name -> streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore())));
    }

    /** Every operation of {@code identity} (on {@code path} when not null) archived at or below {@code untilOffset} and {@code untilTime} (null: no bound). */
    List<ArchiveLocation> locations(String identity, String path, Long untilOffset, Long untilTime) {
        Bytes[] range = path == null ? IndexKeys.identityRange(identity) : IndexKeys.pathRange(identity, path);
        List<ArchiveLocation> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store(path == null ? ArchiveIndexTopology.IDENTITY_INDEX : ArchiveIndexTopology.PATH_INDEX)
                .range(range[0], range[1])) {
            while (it.hasNext()) {
                var next = it.next();
                ArchiveLocation at = IndexKeys.location(next.key, next.value);
                if ((untilOffset == null || at.offset() <= untilOffset) && (untilTime == null || at.timestamp() <= untilTime)) {
                    out.add(at);
                }
            }
        }
        return out;
    }

    /** Whether anything at all of {@code identity} is archived. */
    boolean knows(String identity) {
        Bytes[] range = IndexKeys.identityRange(identity);
        try (KeyValueIterator<Bytes, byte[]> it = store(ArchiveIndexTopology.IDENTITY_INDEX).range(range[0], range[1])) {
            return it.hasNext();
        }
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(String name) {
        return stores.apply(name);
    }
}
