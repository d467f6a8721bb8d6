package io.jolt.stream.kafka;

import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.sync.SyncHistory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * An identity's verified history read from the state stores for the sync responder: the summary
 * gives the devices' heads and the required level, the eligible store's keys are the branches in
 * sequence order, so a page is a range scan from the cursor and costs what the page holds.
 */
final class StoreSyncHistory implements SyncHistory {
    private final String identity;
    private final IdentitySummary summary;
    private final ReadOnlyKeyValueStore<Bytes, byte[]> authority;
    private final ReadOnlyKeyValueStore<Bytes, byte[]> entries;
    private final ReadOnlyKeyValueStore<Bytes, byte[]> eligible;
    private final CompactedHistory compacted;

    private StoreSyncHistory(String identity, IdentitySummary summary, ReadOnlyKeyValueStore<Bytes, byte[]> authority,
            ReadOnlyKeyValueStore<Bytes, byte[]> entries, ReadOnlyKeyValueStore<Bytes, byte[]> eligible, CompactedHistory compacted) {
        this.identity = identity;
        this.summary = summary;
        this.authority = authority;
        this.entries = entries;
        this.eligible = eligible;
        this.compacted = compacted;
    }

    /** Empty for an identity without a valid authority chain here. */
    static Optional<SyncHistory> of(String identity, ReadOnlyKeyValueStore<Bytes, byte[]> identities, ReadOnlyKeyValueStore<Bytes, byte[]> authority,
            ReadOnlyKeyValueStore<Bytes, byte[]> entries, ReadOnlyKeyValueStore<Bytes, byte[]> eligible, CompactedHistory compacted) {
        byte[] summary = identities.get(Stores.identity(identity));
        return summary == null ? Optional.empty()
                : Optional.of(new StoreSyncHistory(identity, IdentitySummary.decode(summary), authority, entries, eligible, compacted));
    }

    @Override
    public Optional<CompactedHistory.Floor> floor(String deviceId) {
        return compacted.floor(deviceId);
    }

    @Override
    public int requiredLevel() {
        return summary.requiredLevel();
    }

    @Override
    public List<AuthorityRecord> chain() {
        List<AuthorityRecord> records = new ArrayList<>();
        StoreScans.forEach(authority, Stores.identity(identity), (k, v) -> records.add(AuthorityRecord.fromWire(v)));
        return Authority.verify(identity, records).chain();
    }

    @Override
    public List<Branch> branches() {
        List<Branch> out = new ArrayList<>();
        for (IdentitySummary.Device d : summary.devices()) {
            Head head = d.head();
            if (head != null) {
                out.add(new Branch(d.deviceId(), entry(d.deviceId(), head.deviceSequence(), head.entryHash())));
            }
        }
        out.sort((a, b) -> io.jolt.stream.protocol.Utf8.compare(a.deviceId(), b.deviceId()));
        return out;
    }

    @Override
    public Entry entryAt(String deviceId, long sequence) {
        List<Entry> one = entries(deviceId, sequence, 1);
        return one.isEmpty() ? null : one.get(0);
    }

    @Override
    public List<Entry> entries(String deviceId, long fromSequence, int max) {
        Bytes device = Stores.device(identity, deviceId);
        Bytes from = Stores.deviceSequence(identity, deviceId, fromSequence);
        List<Entry> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = eligible.range(from, Bytes.increment(device))) {
            while (it.hasNext() && out.size() < max) {
                KeyValue<Bytes, byte[]> next = it.next();
                byte[] key = next.key.get();
                byte[] prefix = device.get();
                if (key.length < prefix.length + 8 + Hash.LENGTH || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                    break;
                }
                if (!Stores.isEligibleNow(next.value)) {
                    continue; // archived once, off the chosen branch since
                }
                long sequence = java.nio.ByteBuffer.wrap(key, prefix.length, 8).getLong();
                Hash hash = Hash.of(Arrays.copyOfRange(key, prefix.length + 8, prefix.length + 8 + Hash.LENGTH));
                out.add(entry(deviceId, sequence, hash));
            }
        }
        return out;
    }

    /** The stored entry with this hash; of two copies (signatures) the lesser, which sorts first. */
    private Entry entry(String deviceId, long sequence, Hash hash) {
        try (KeyValueIterator<Bytes, byte[]> it = entries.prefixScan(Stores.entryHash(identity, deviceId, sequence, hash), new BytesSerializer())) {
            if (!it.hasNext()) {
                throw new IllegalStateException("eligible entry " + hash + " of " + identity + " is not stored");
            }
            return StoredEntry.decode(it.next().value).entry();
        }
    }
}
