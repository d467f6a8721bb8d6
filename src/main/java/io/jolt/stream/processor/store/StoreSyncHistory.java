package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.Authority;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Utf8;
import io.jolt.stream.protocol.sync.SyncHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * An identity's verified history read from the state stores for the sync responder: the summary
 * gives the devices' heads and the required level, the entries store's keys are the devices'
 * entries in sequence order, so a page is a range scan from the cursor and costs what the page
 * holds (plus what is stored there and not eligible: held entries, bounded, and rejected copies).
 */
final class StoreSyncHistory implements SyncHistory {
    private final String identity;
    private final IdentitySummary summary;
    private final IdentityStoreView stores;
    private final CompactedHistory compacted;
    private final SignatureCheck signatures;

    StoreSyncHistory(String identity, IdentitySummary summary, IdentityStoreView stores, CompactedHistory compacted, SignatureCheck signatures) {
        this.identity = identity;
        this.summary = summary;
        this.stores = stores;
        this.compacted = compacted;
        this.signatures = signatures;
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
        return Authority.verify(identity, StoredIdentity.authorityRecords(identity, stores.read(StoreName.AUTHORITY)), signatures).chain();
    }

    @Override
    public List<Branch> branches() {
        List<Branch> out = new ArrayList<>();
        for (IdentitySummary.Device d : summary.devices()) {
            Head head = d.head();
            if (head != null) {
                List<StoredEntry> copies = stores.copies(identity, d.deviceId(), head.deviceSequence(), head.entryHash());
                if (copies.isEmpty()) {
                    throw new IllegalStateException("eligible entry " + head.entryHash() + " of " + identity + " is not stored");
                }
                out.add(new Branch(d.deviceId(), served(d.deviceId(), copies)));
            }
        }
        out.sort((a, b) -> Utf8.compare(a.deviceId(), b.deviceId()));
        return out;
    }

    @Override
    public Entry entryAt(String deviceId, long sequence) {
        List<Entry> one = entries(deviceId, sequence, 1);
        return one.isEmpty() ? null : one.get(0);
    }

    @Override
    public List<Entry> entries(String deviceId, long fromSequence, int max) {
        List<Entry> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = stores.entriesFrom(identity, deviceId, fromSequence)) {
            List<StoredEntry> copies = new ArrayList<>(1); // of one entry (its signatures): adjacent in key order
            while (it.hasNext() && out.size() < max) {
                KeyValue<Bytes, byte[]> stored = it.next();
                StoredEntry next = StoredEntry.decode(stored.key, stored.value);
                if (!copies.isEmpty() && !copies.get(0).entry().hash().equals(next.entry().hash())) {
                    servedIfEligible(deviceId, copies).ifPresent(out::add);
                    copies.clear();
                }
                copies.add(next);
            }
            if (!copies.isEmpty() && out.size() < max) {
                servedIfEligible(deviceId, copies).ifPresent(out::add);
            }
        }
        return out;
    }

    /** The copy to serve of an entry eligible now; empty when it is not (held, rejected, or off the chosen branch since). */
    private Optional<Entry> servedIfEligible(String deviceId, List<StoredEntry> copies) {
        boolean archivedOnArrival = copies.stream().anyMatch(StoredEntry::archivedOnArrival);
        if (!stores.eligibleNow(identity, copies.get(0).entry(), archivedOnArrival)) {
            return Optional.empty();
        }
        return Optional.of(served(deviceId, copies));
    }

    /**
     * Of an eligible entry's stored copies, the one to serve: the only one, or else the first in
     * key order whose signature verifies (a forged copy of an eligible body is stored too, and
     * may sort first). The process remembers verified signatures, so this rarely costs a verify.
     */
    private Entry served(String deviceId, List<StoredEntry> copies) {
        if (copies.size() == 1) {
            return copies.get(0).entry();
        }
        Optional<PublicKey> key = summary.device(deviceId).flatMap(d -> PublicKey.parse(d.publicKey()));
        return copies.stream().map(StoredEntry::entry).filter(e -> key.isPresent() && e.signatureVerifies(key.get(), signatures)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no stored copy of eligible entry " + copies.get(0).entry().hash()
                        + " of " + identity + " verifies"));
    }
}
