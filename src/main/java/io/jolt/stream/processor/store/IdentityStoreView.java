package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.CompactedHistory;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.JoltPath;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Utf8;
import io.jolt.stream.protocol.sync.SyncHistory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * What the stores hold of an identity, each question one call: the read-only face, for the
 * interactive queries and the sync responder. {@link IdentityStore} adds the processor's writes.
 */
public class IdentityStoreView {
    private final Function<StoreName, ? extends ReadOnlyKeyValueStore<Bytes, byte[]>> open;
    private final Map<StoreName, ReadOnlyKeyValueStore<Bytes, byte[]>> opened = new EnumMap<>(StoreName.class);

    /** @param open the store of each name, asked once per name and only when needed */
    public IdentityStoreView(Function<StoreName, ? extends ReadOnlyKeyValueStore<Bytes, byte[]>> open) {
        this.open = open;
    }

    /** A page of append records in §6 order and the token for the next page (null at the end). */
    public record AppendPage(List<AppendRecord> records, String nextPageToken) {}

    ReadOnlyKeyValueStore<Bytes, byte[]> read(StoreName name) {
        return opened.computeIfAbsent(name, open);
    }

    /** Whether anything of this identity (authority or entries) is held here. */
    public boolean knows(String identity) {
        Bytes prefix = Keys.identity(identity);
        return StoreScans.count(read(StoreName.AUTHORITY), prefix, 1) > 0 || StoreScans.count(read(StoreName.ENTRIES), prefix, 1) > 0;
    }

    /** The devices and required level of an identity with a valid authority chain; empty without one. */
    public Optional<IdentitySummary> summary(String identity) {
        byte[] bytes = read(StoreName.IDENTITIES).get(Keys.identity(identity));
        return bytes == null ? Optional.empty() : Optional.of(IdentitySummary.decode(bytes));
    }

    /** The active singleton heads of a path (empty when none). */
    public List<Entry> heads(String identity, String path) {
        return Keys.decodeHeads(read(StoreName.HEADS).get(Keys.path(identity, path)));
    }

    /** Every path of the identity with active heads → its heads, in path order. */
    public Map<String, List<Entry>> allHeads(String identity) {
        Map<String, List<Entry>> byPath = new TreeMap<>(Utf8.ORDER);
        StoreScans.forEach(read(StoreName.HEADS), Keys.identity(identity), (k, v) -> {
            List<Entry> active = Keys.decodeHeads(v);
            if (!active.isEmpty()) {
                byPath.put(active.get(0).body().operation().path(), active);
            }
        });
        return byPath;
    }

    /** Every stored record of the identity. */
    public StoredIdentity stored(String identity) {
        return StoredIdentity.load(identity, read(StoreName.AUTHORITY), read(StoreName.ENTRIES));
    }

    public CompactedHistory compacted(String identity) {
        return CompactedHistory.decode(read(StoreName.COMPACTED).get(Keys.identity(identity)));
    }

    /** Whether this very copy of the entry (its body and signature) is stored. */
    public boolean holds(Entry entry) {
        return read(StoreName.ENTRIES).get(Keys.entry(entry)) != null;
    }

    /** Whether anything of the device is stored. */
    public boolean holdsAnyOf(String identity, String device) {
        return StoreScans.count(read(StoreName.ENTRIES), Keys.device(identity, device), 1) > 0;
    }

    /** Whether anything of the device is stored at the sequence. */
    public boolean holdsAnyAt(String identity, String device, long sequence) {
        return StoreScans.count(read(StoreName.ENTRIES), Keys.deviceSequence(identity, device, sequence), 1) > 0;
    }

    /** Whether an eligible candidate of the path observed the hash. */
    public boolean isObserved(String identity, String path, Hash hash) {
        return read(StoreName.OBSERVED).get(Keys.pathHash(identity, path, hash)) != null;
    }

    /** How many entries of the identity are held while not eligible. */
    public long heldCount(String identity) {
        byte[] v = read(StoreName.HELD).get(Keys.identity(identity));
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    /** The verified history the sync responder pages through (empty without a valid authority chain), signatures checked by {@code signatures}. */
    public Optional<SyncHistory> syncHistory(String identity, SignatureCheck signatures) {
        return summary(identity).map(s -> new StoreSyncHistory(identity, s, this, compacted(identity), signatures));
    }

    /**
     * Append records under {@code prefix} in §6 order, at most {@code limit}, after the position a
     * page token names. The cost follows the page: one range scan from the token.
     *
     * @throws IllegalArgumentException for a prefix that is not canonical or a token of another identity
     */
    /** The first key after the one a page token names (the last key of the page before). */
    private static Bytes after(String pageToken) {
        if (pageToken.isEmpty()) {
            throw new IllegalArgumentException("an empty page token");
        }
        try {
            return Bytes.increment(Bytes.wrap(Hex.decode(pageToken, pageToken.length() / 2)));
        } catch (IndexOutOfBoundsException e) { // a key of 0xff bytes only: no key follows it, and none of ours is one
            throw new IllegalArgumentException("not a page token: " + pageToken);
        }
    }

    public AppendPage appends(String identity, String prefix, int limit, String pageToken) {
        if (!JoltPath.isPrefix(prefix)) {
            throw new IllegalArgumentException("not a canonical prefix: " + prefix);
        }
        Bytes scanPrefix = Keys.appendPrefix(identity, prefix);
        Bytes from = pageToken == null ? scanPrefix : after(pageToken);
        if (pageToken != null && !startsWith(from.get(), Keys.identity(identity).get())) {
            throw new IllegalArgumentException("page token does not belong to this identity");
        }
        List<AppendRecord> out = new ArrayList<>();
        Bytes lastKey = null;
        boolean more = false;
        try (KeyValueIterator<Bytes, byte[]> it = read(StoreName.APPENDS).range(from, Bytes.increment(scanPrefix))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!startsWith(kv.key.get(), scanPrefix.get())) {
                    continue; // range end is exclusive of the increment, but be exact
                }
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                out.add(Keys.appendRecord(kv.key, kv.value).orElseGet(() -> AppendRecord.of(Entry.fromWire(kv.value)))); // else written by an earlier build
                lastKey = kv.key;
            }
        }
        return new AppendPage(out, more && lastKey != null ? Hex.encode(lastKey.get()) : null);
    }

    /** The stored copies of one entry (its signatures), in key order. */
    List<StoredEntry> copies(String identity, String device, long sequence, Hash hash) {
        List<StoredEntry> copies = new ArrayList<>(1);
        StoreScans.forEach(read(StoreName.ENTRIES), Keys.entryHash(identity, device, sequence, hash), (k, v) -> copies.add(StoredEntry.decode(k, v)));
        return copies;
    }

    /** Whether a stored entry counts as archived and eligible now. */
    boolean eligibleNow(String identity, Entry entry, boolean archivedOnArrival) {
        return Keys.eligibleNow(read(StoreName.ELIGIBLE).get(Keys.entryHash(identity, entry)), archivedOnArrival);
    }

    /** The device's stored entries from a sequence on, in key order (sequence, hash, signature). */
    KeyValueIterator<Bytes, byte[]> entriesFrom(String identity, String device, long fromSequence) {
        return read(StoreName.ENTRIES).range(Keys.deviceSequence(identity, device, fromSequence), Bytes.increment(Keys.device(identity, device)));
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
