package io.jolt.stream.kafka;

import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.JoltPath;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Interactive queries over this instance's state stores: resolve, enumerate and the merged state
 * of an identity. Which instance owns an identity is {@link #owner}; the HTTP layer forwards.
 */
public final class IdentityQueries {
    private final KafkaStreams streams;

    public IdentityQueries(KafkaStreams streams) {
        this.streams = streams;
    }

    /** A page of enumeration results and the token for the next page (null at the end). */
    public record EnumeratePage(List<AppendRecord> records, String nextPageToken) {}

    public KeyQueryMetadata owner(String identity) {
        return streams.queryMetadataForKey(Stores.HEADS, identity, Serdes.String().serializer());
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store(String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
    }

    /** Whether anything of this identity (authority or entries) is held here. */
    public boolean knows(String identity) {
        return any(store(Stores.AUTHORITY), Stores.identity(identity)) || any(store(Stores.ENTRIES), Stores.identity(identity));
    }

    public Resolution resolve(String identity, String path) {
        if (!JoltPath.isCanonical(path)) {
            return new Resolution.NonCanonicalPath(path);
        }
        return Resolution.of(path, singleton(identity, path));
    }

    /** The current singleton state of a path (null when none). */
    public SingletonState singleton(String identity, String path) {
        List<Entry> active = Stores.decodeHeads(store(Stores.HEADS).get(Stores.path(identity, path)));
        return SingletonMerge.merge(path, active).orElse(null);
    }

    /**
     * Append records under {@code prefix} in §6 order, at most {@code limit}, after the position a
     * page token names. The cost follows the page: one range scan from the token.
     */
    public EnumeratePage enumerate(String identity, String prefix, int limit, String pageToken) {
        if (!JoltPath.isPrefix(prefix)) {
            throw new IllegalArgumentException("not a canonical prefix: " + prefix);
        }
        Bytes scanPrefix = Stores.appendPrefix(identity, prefix);
        Bytes from = pageToken == null ? scanPrefix : Bytes.increment(Bytes.wrap(Hex.decode(pageToken, pageToken.length() / 2)));
        if (pageToken != null && !startsWith(from.get(), Stores.identity(identity).get())) {
            throw new IllegalArgumentException("page token does not belong to this identity");
        }
        Bytes to = Bytes.increment(scanPrefix);
        List<AppendRecord> out = new ArrayList<>();
        Bytes lastKey = null;
        boolean more = false;
        try (KeyValueIterator<Bytes, byte[]> it = store(Stores.APPENDS).range(from, to)) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!startsWith(kv.key.get(), scanPrefix.get())) {
                    continue; // range end is exclusive of the increment, but be exact
                }
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                out.add(AppendRecord.of(Entry.fromWire(kv.value)));
                lastKey = kv.key;
            }
        }
        return new EnumeratePage(out, more && lastKey != null ? Hex.encode(lastKey.get()) : null);
    }

    /** The verified history the sync responder pages through (empty without a valid authority chain). */
    public Optional<io.jolt.stream.protocol.sync.SyncHistory> syncHistory(String identity) {
        return StoreSyncHistory.of(identity, store(Stores.IDENTITIES), store(Stores.AUTHORITY), store(Stores.ENTRIES), store(Stores.ELIGIBLE),
                compacted(identity));
    }

    /** The §9 merged state of an identity from its stored records, or empty when nothing is held. */
    public Optional<MergedState> state(String identity) {
        StoredIdentity stored = StoredIdentity.load(identity, store(Stores.AUTHORITY), store(Stores.ENTRIES));
        if (stored.authority().isEmpty() && stored.inputs().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), compacted(identity)));
    }

    private CompactedHistory compacted(String identity) {
        return CompactedHistory.decode(store(Stores.COMPACTED).get(Stores.identity(identity)));
    }

    private static boolean any(ReadOnlyKeyValueStore<Bytes, byte[]> store, Bytes prefix) {
        return StoreScans.count(store, prefix, 1) > 0;
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
