package io.jolt.stream.processor.store;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Prefix scans over a store whose keys are {@link StoreKey} tuples: everything of an identity, a device, a path. */
final class StoreScans {
    private StoreScans() {}

    interface KeyValueAction {
        void accept(Bytes key, byte[] value);
    }

    static void forEach(ReadOnlyKeyValueStore<Bytes, byte[]> store, Bytes prefix, KeyValueAction action) {
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(prefix, new BytesSerializer())) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                action.accept(kv.key, kv.value);
            }
        }
    }

    /** How many keys begin with {@code prefix}, counting no further than {@code atMost}. */
    static int count(ReadOnlyKeyValueStore<Bytes, byte[]> store, Bytes prefix, int atMost) {
        int n = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.prefixScan(prefix, new BytesSerializer())) {
            while (it.hasNext() && n < atMost) {
                it.next();
                n++;
            }
        }
        return n;
    }

    static void deletePrefix(KeyValueStore<Bytes, byte[]> store, Bytes prefix) {
        List<Bytes> keys = new ArrayList<>();
        forEach(store, prefix, (k, v) -> keys.add(k));
        keys.forEach(store::delete);
    }
}
