package io.jolt.stream.workload;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.ContentId;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DeviceWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.SigningKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * A realistic synthetic workload: identities with several devices writing concurrently
 * (singleton conflicts, observed heads resolving them), tombstones and restores, append records,
 * and, among them, a revocation with a cutoff, a device fork, and bad records (forged signatures,
 * non-canonical paths, unknown devices). Deterministic for a seed; identities are generated in
 * parallel (signing dominates).
 */
public final class Workload {
    /** What was generated, record by record, and how many of each kind. */
    public record Generated(List<AuthorityRecord> authority, List<Entry> entries, Map<String, Long> counts) {}

    public record Shape(int identities, int devices, int entriesPerDevice, long seed) {}

    private Workload() {}

    public static Generated generate(Shape shape, ProgressListener progress) {
        List<IdentityRecords> perIdentity = IntStream.range(0, shape.identities()).parallel()
                .mapToObj(i -> {
                    IdentityRecords r = identity(shape, i);
                    progress.generated(1);
                    return r;
                }).toList();
        List<AuthorityRecord> authority = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        Map<String, Long> counts = new TreeMap<>();
        for (IdentityRecords r : perIdentity) {
            authority.addAll(r.authority);
            entries.addAll(r.entries);
            r.counts.forEach((k, v) -> counts.merge(k, v, Long::sum));
        }
        counts.put("identities", (long) shape.identities());
        counts.put("authority_records", (long) authority.size());
        counts.put("entries", (long) entries.size());
        return new Generated(List.copyOf(authority), List.copyOf(entries), counts);
    }

    /** Progress of a long generation (for a progress bar). */
    public interface ProgressListener {
        void generated(int identities);
    }

    private static final class IdentityRecords {
        final List<AuthorityRecord> authority = new ArrayList<>();
        final List<Entry> entries = new ArrayList<>();
        final Map<String, Long> counts = new TreeMap<>();

        void count(String what) {
            counts.merge(what, 1L, Long::sum);
        }
    }

    private static IdentityRecords identity(Shape shape, int index) {
        Random random = new Random(shape.seed() * 1_000_003L + index);
        IdentityRecords out = new IdentityRecords();
        SigningKey root = key(shape.seed(), index, "root");
        AuthorityWriter authority = AuthorityWriter.genesis(root);
        String identity = authority.identity();
        long clock = 1_764_547_200_000L + index * 1000L;
        AtomicLong time = new AtomicLong(clock);

        List<String> deviceIds = new ArrayList<>();
        List<SigningKey> keys = new ArrayList<>();
        List<DeviceWriter> writers = new ArrayList<>();
        for (int d = 0; d < shape.devices(); d++) {
            String deviceId = "dev_" + (char) ('a' + d);
            SigningKey key = key(shape.seed(), index, deviceId);
            AuthorityWriter.Written w = authority.write(root, new AuthorityAction.Authorize(deviceId, key.publicKeyBytes()), time.incrementAndGet());
            authority = w.next();
            out.authority.add(w.record());
            deviceIds.add(deviceId);
            keys.add(key);
            writers.add(DeviceWriter.genesis(identity, deviceId));
        }
        boolean revokes = index % 97 == 5 && shape.devices() > 1;
        boolean forks = index % 89 == 7;
        boolean bad = index % 53 == 3;
        Map<String, Hash> lastSingleton = new TreeMap<>();
        String[] singletonPaths = {"/profile", "/settings/theme", "/notes/1", "/notes/2"};
        for (int step = 0; step < shape.entriesPerDevice(); step++) {
            for (int d = 0; d < writers.size(); d++) {
                DeviceWriter writer = writers.get(d);
                int kind = random.nextInt(10);
                Operation op;
                List<Hash> observed = List.of();
                String path = singletonPaths[random.nextInt(singletonPaths.length)];
                if (kind < 4) {
                    op = new Operation.SetPath("/posts/" + random.nextInt(20), cid(identity, d, step), Operation.Mode.APPEND);
                    out.count("appends");
                } else if (kind < 5 && lastSingleton.containsKey(path)) {
                    op = new Operation.TombstonePath(path);
                    observed = List.of(lastSingleton.get(path));
                    out.count("tombstones");
                } else {
                    op = new Operation.SetPath(path, cid(identity, d, step), Operation.Mode.SINGLETON);
                    // Half the writes observe the last write seen on the path (resolving concurrency), half do not.
                    if (random.nextBoolean() && lastSingleton.containsKey(path)) {
                        observed = List.of(lastSingleton.get(path));
                    }
                    out.count("singleton_sets");
                }
                DeviceWriter.Written w = writer.write(keys.get(d), op, time.incrementAndGet(), observed);
                writers.set(d, w.next());
                out.entries.add(w.entry());
                if (op.isSingletonCandidate()) {
                    lastSingleton.put(op.path(), w.entry().hash());
                }
                if (forks && d == 0 && step == shape.entriesPerDevice() / 2) {
                    // The same device signs a second entry at this sequence from a stale copy: a fork.
                    DeviceWriter.Written fork = writer.write(keys.get(d), new Operation.SetPath("/profile", cid(identity, 99, step),
                            Operation.Mode.SINGLETON), time.incrementAndGet(), List.of());
                    out.entries.add(fork.entry());
                    out.count("forked_entries");
                }
            }
            if (revokes && step == shape.entriesPerDevice() / 2) {
                int last = writers.size() - 1;
                DeviceWriter w = writers.get(last);
                if (w.previousEntryHash() != null) {
                    AuthorityWriter.Written r = authority.write(root, new AuthorityAction.Revoke(deviceIds.get(last),
                            new Cutoff(w.nextSequence() - 1, w.previousEntryHash())), time.incrementAndGet());
                    authority = r.next();
                    out.authority.add(r.record());
                    out.count("revocations");
                }
            }
        }
        if (bad) {
            Entry good = out.entries.get(out.entries.size() - 1);
            byte[] forged = good.signature();
            forged[7] ^= 0x20;
            out.entries.add(Entry.of(nextBody(good, "/forged"), forged));
            out.count("bad_signature");
            EntryBody badPath = nextBody(good, "/not/canonical/");
            out.entries.add(Entry.of(badPath, keys.get(0).sign(badPath.canonicalBytes())));
            out.count("invalid_entry");
            SigningKey stranger = key(shape.seed(), index, "stranger");
            DeviceWriter.Written unknown = DeviceWriter.genesis(identity, "dev_unknown")
                    .write(stranger, new Operation.SetPath("/profile", cid(identity, 77, 0), Operation.Mode.SINGLETON), time.incrementAndGet(), List.of());
            out.entries.add(unknown.entry());
            out.count("unknown_device");
        }
        return out;
    }

    /** A body one step after {@code after}, on the same device, with a different path. */
    private static EntryBody nextBody(Entry after, String path) {
        EntryBody b = after.body();
        return new EntryBody(b.recordType(), b.version(), b.identity(), b.deviceId(), b.deviceSequence() + 1, after.hash(),
                path.endsWith("/") ? new Operation.TombstonePath(path) : new Operation.SetPath(path, cid(b.identity(), 55, 1), Operation.Mode.SINGLETON),
                b.createdAt() + 1, List.of());
    }

    private static SigningKey key(long seed, int index, String name) {
        byte[] seedBytes = Arrays.copyOf(Hash.blake3((seed + "/" + index + "/" + name).getBytes(StandardCharsets.UTF_8)).bytes(), 32);
        return SigningKey.fromSeed(seedBytes);
    }

    private static String cid(String identity, int device, int step) {
        return ContentId.ofRaw(ByteBuffer.allocate(64).put(identity.getBytes(StandardCharsets.US_ASCII), 0, 32).putInt(device).putInt(step).array());
    }
}
