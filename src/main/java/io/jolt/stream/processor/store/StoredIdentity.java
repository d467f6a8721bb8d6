package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Everything stored of an identity: its authority records and its entries, with where each came
 * from, and the entries the hot path archived on arrival.
 */
public record StoredIdentity(List<AuthorityRecord> authority, List<EntryInput> inputs, Map<Hash, Source> sources, Map<Hash, Entry> byHash,
        List<Entry> archivedOnArrival) {

    public boolean isEmpty() {
        return authority.isEmpty() && inputs.isEmpty();
    }

    static StoredIdentity load(String identity, ReadOnlyKeyValueStore<Bytes, byte[]> authorityStore, ReadOnlyKeyValueStore<Bytes, byte[]> entryStore) {
        List<AuthorityRecord> authority = authorityRecords(identity, authorityStore);
        List<EntryInput> inputs = new ArrayList<>();
        Map<Hash, Source> sources = new HashMap<>();
        Map<Hash, Entry> byHash = new HashMap<>();
        List<Entry> archivedOnArrival = new ArrayList<>();
        StoreScans.forEach(entryStore, Keys.identity(identity), (k, v) -> {
            StoredEntry s = StoredEntry.decode(k, v);
            inputs.add(new EntryInput.Signed(s.entry()));
            sources.putIfAbsent(s.entry().hash(), s.source());
            byHash.putIfAbsent(s.entry().hash(), s.entry());
            if (s.archivedOnArrival()) {
                archivedOnArrival.add(s.entry());
            }
        });
        return new StoredIdentity(authority, inputs, sources, byHash, archivedOnArrival);
    }

    static List<AuthorityRecord> authorityRecords(String identity, ReadOnlyKeyValueStore<Bytes, byte[]> authorityStore) {
        List<AuthorityRecord> authority = new ArrayList<>();
        StoreScans.forEach(authorityStore, Keys.identity(identity), (k, v) -> authority.add(AuthorityRecord.fromWire(v)));
        return authority;
    }
}
