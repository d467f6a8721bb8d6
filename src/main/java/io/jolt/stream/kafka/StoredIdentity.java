package io.jolt.stream.kafka;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.Hash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Everything stored of an identity: its authority records and its entries, with where each came
 * from, and the entries the hot path archived on arrival (as {@link Stores#entryHash} keys).
 */
record StoredIdentity(List<AuthorityRecord> authority, List<EntryInput> inputs, Map<Hash, Source> sources, Map<Hash, Entry> byHash,
        Set<Bytes> archivedOnArrival) {
    static StoredIdentity load(String identity, ReadOnlyKeyValueStore<Bytes, byte[]> authorityStore, ReadOnlyKeyValueStore<Bytes, byte[]> entryStore) {
        List<AuthorityRecord> authority = new ArrayList<>();
        StoreScans.forEach(authorityStore, Stores.identity(identity), (k, v) -> authority.add(AuthorityRecord.fromWire(v)));
        List<EntryInput> inputs = new ArrayList<>();
        Map<Hash, Source> sources = new HashMap<>();
        Map<Hash, Entry> byHash = new HashMap<>();
        Set<Bytes> archivedOnArrival = new HashSet<>();
        StoreScans.forEach(entryStore, Stores.identity(identity), (k, v) -> {
            StoredEntry s = StoredEntry.decode(v);
            inputs.add(new EntryInput.Signed(s.entry()));
            sources.putIfAbsent(s.entry().hash(), s.source());
            byHash.putIfAbsent(s.entry().hash(), s.entry());
            if (s.archivedOnArrival()) {
                archivedOnArrival.add(Stores.entryHash(identity, s.entry()));
            }
        });
        return new StoredIdentity(authority, inputs, sources, byHash, archivedOnArrival);
    }
}
