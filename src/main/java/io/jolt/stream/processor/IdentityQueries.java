package io.jolt.stream.processor;

import io.jolt.stream.processor.store.IdentityStoreView;
import io.jolt.stream.processor.store.StoreName;
import io.jolt.stream.processor.store.StoredIdentity;
import io.jolt.stream.protocol.IdentityAssembler;
import io.jolt.stream.protocol.JoltPath;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.SingletonMerge;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.sync.SyncHistory;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Interactive queries over this instance's state stores: resolve, enumerate, the merged state
 * and the sync history of an identity. Which instance owns an identity is {@link #owner}; the
 * HTTP layer routes there.
 */
public final class IdentityQueries {
    private final KafkaStreams streams;
    private final SignatureCheck signatures;

    public IdentityQueries(KafkaStreams streams, SignatureCheck signatures) {
        this.streams = streams;
        this.signatures = signatures;
    }

    public KeyQueryMetadata owner(String identity) {
        return streams.queryMetadataForKey(StoreName.HEADS.storeName(), identity, Serdes.String().serializer());
    }

    /**
     * The stores of the identity's partition as they are now (one view per question: a rebalance
     * may move them between questions). Only that partition's: a store of it still restoring, or
     * no longer here, is refused (InvalidStateStoreException, answered 503) rather than read as
     * holding nothing of the identity.
     */
    private IdentityStoreView stores(String identity) {
        KeyQueryMetadata owner = owner(identity);
        return new IdentityStoreView(name -> {
            StoreQueryParameters<ReadOnlyKeyValueStore<Bytes, byte[]>> store =
                    StoreQueryParameters.fromNameAndType(name.storeName(), QueryableStoreTypes.<Bytes, byte[]>keyValueStore());
            return streams.store(owner.partition() >= 0 ? store.withPartition(owner.partition()) : store);
        });
    }

    /** Whether anything of this identity (authority or entries) is held here. */
    public boolean knows(String identity) {
        return stores(identity).knows(identity);
    }

    public Resolution resolve(String identity, String path) {
        if (!JoltPath.isCanonical(path)) {
            return new Resolution.NonCanonicalPath(path);
        }
        return Resolution.of(path, singleton(identity, path));
    }

    /** The current singleton state of a path (null when none). */
    public SingletonState singleton(String identity, String path) {
        return SingletonMerge.resolve(path, stores(identity).heads(identity, path)).orElse(null);
    }

    /** @see IdentityStoreView#appends */
    public IdentityStoreView.AppendPage enumerate(String identity, String prefix, int limit, String pageToken) {
        return stores(identity).appends(identity, prefix, limit, pageToken);
    }

    /** The verified history the sync responder pages through (empty without a valid authority chain). */
    public Optional<SyncHistory> syncHistory(String identity) {
        return stores(identity).syncHistory(identity, signatures);
    }

    /** The §9 merged state of an identity from its stored records, or empty when nothing is held. */
    public Optional<MergedState> state(String identity) {
        IdentityStoreView stores = stores(identity);
        StoredIdentity stored = stores.stored(identity);
        if (stored.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(IdentityAssembler.assemble(identity, stored.authority(), stored.inputs(), stores.compacted(identity), signatures));
    }
}
