package io.jolt.stream.workload;

import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.AuthorityWriter;
import io.jolt.stream.protocol.Cutoff;
import io.jolt.stream.protocol.DeviceWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryBody;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.SigningKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * One identity of a {@link Workload}, played out: its devices authorized, then step by step
 * each device writes (appends, singleton sets that observe the last value seen or not,
 * tombstones), and on some identities a device forks, a device is revoked with a cutoff, and bad
 * records are planted. Deterministic for (seed, index).
 */
final class IdentityScript {
    private static final String[] SINGLETON_PATHS = {"/profile", "/settings/theme", "/notes/1", "/notes/2"};

    private final Workload.Shape shape;
    private final int index;
    private final Random random;
    private final SigningKey root;
    private final String identity;
    private AuthorityWriter authority;
    private long time;
    private final List<String> deviceIds = new ArrayList<>();
    private final List<SigningKey> keys = new ArrayList<>();
    private final List<DeviceWriter> writers = new ArrayList<>();
    /** The last singleton candidate written to each path, what the next writer may observe. */
    private final Map<String, Hash> lastSingleton = new TreeMap<>();
    private final List<AuthorityRecord> authorityRecords = new ArrayList<>();
    private final List<Entry> entries = new ArrayList<>();
    private final Map<String, Long> counts = new TreeMap<>();

    private IdentityScript(Workload.Shape shape, int index) {
        this.shape = shape;
        this.index = index;
        this.random = new Random(shape.seed() * 1_000_003L + index);
        this.root = Workload.key(shape.seed(), index, "root");
        this.authority = AuthorityWriter.genesis(root);
        this.identity = authority.identity();
        this.time = 1_764_547_200_000L + index * 1000L;
    }

    static IdentityScript play(Workload.Shape shape, int index) {
        IdentityScript script = new IdentityScript(shape, index);
        script.authorizeDevices();
        boolean revokes = index % 97 == 5 && shape.devices() > 1;
        for (int step = 0; step < shape.entriesPerDevice(); step++) {
            for (int d = 0; d < script.writers.size(); d++) {
                script.write(d, step);
            }
            if (revokes && step == shape.entriesPerDevice() / 2) {
                script.revokeLastDevice();
            }
        }
        if (index % 53 == 3) {
            script.plantBadRecords();
        }
        return script;
    }

    List<AuthorityRecord> authority() {
        return authorityRecords;
    }

    List<Entry> entries() {
        return entries;
    }

    Map<String, Long> counts() {
        return counts;
    }

    private static final long CLOCK_AHEAD_MS = 300_000;

    private void authorizeDevices() {
        if (index % 7 == 2) {
            count("clock_ahead_devices");
        }
        for (int d = 0; d < shape.devices(); d++) {
            String deviceId = "dev_" + (char) ('a' + d);
            SigningKey key = Workload.key(shape.seed(), index, deviceId);
            authorize(new AuthorityAction.Authorize(deviceId, key.publicKeyBytes()));
            deviceIds.add(deviceId);
            keys.add(key);
            writers.add(DeviceWriter.genesis(identity, deviceId));
        }
    }

    /** Device {@code d}'s write of this step: four in ten an append, else a tombstone (one in ten) or a singleton set. */
    private void write(int d, int step) {
        DeviceWriter writer = writers.get(d);
        int kind = random.nextInt(10);
        String path = SINGLETON_PATHS[random.nextInt(SINGLETON_PATHS.length)];
        Operation op;
        List<Hash> observed = List.of();
        if (kind < 4) {
            op = new Operation.SetPath("/posts/" + random.nextInt(20), Workload.cid(identity, d, step), Operation.Mode.APPEND);
            count("appends");
        } else if (kind < 5 && lastSingleton.containsKey(path)) {
            op = new Operation.TombstonePath(path);
            observed = List.of(lastSingleton.get(path));
            count("tombstones");
        } else {
            op = new Operation.SetPath(path, Workload.cid(identity, d, step), Operation.Mode.SINGLETON);
            // Half the writes observe the last write seen on the path (resolving concurrency), half do not.
            if (random.nextBoolean() && lastSingleton.containsKey(path)) {
                observed = List.of(lastSingleton.get(path));
            }
            count("singleton_sets");
        }
        DeviceWriter.Written w = writer.write(keys.get(d), op, ++time + clockSkew(d), observed);
        writers.set(d, w.next());
        entries.add(w.entry());
        if (op.isSingletonCandidate()) {
            lastSingleton.put(op.path(), w.entry().hash());
        }
        if (index % 89 == 7 && d == 0 && step == shape.entriesPerDevice() / 2) {
            fork(writer, d, step);
        }
    }

    /**
     * One identity in seven has a first device whose clock runs five minutes ahead, as real
     * devices' clocks do: where it loses a conflict under PROTOCOL §6, RFC-0003's v1 rule
     * (created_at first) would have made it win, and the conflict is clock sensitive.
     */
    private long clockSkew(int d) {
        return d == 0 && index % 7 == 2 ? CLOCK_AHEAD_MS : 0;
    }

    /** The same device signs a second entry at this sequence from a stale copy of its writer: a fork. */
    private void fork(DeviceWriter stale, int d, int step) {
        DeviceWriter.Written fork = stale.write(keys.get(d), new Operation.SetPath("/profile", Workload.cid(identity, 99, step),
                Operation.Mode.SINGLETON), ++time + clockSkew(d), List.of());
        entries.add(fork.entry());
        count("forked_entries");
    }

    /** Revokes the last device with a cutoff at its latest entry. */
    private void revokeLastDevice() {
        int last = writers.size() - 1;
        DeviceWriter w = writers.get(last);
        if (w.previousEntryHash() != null) {
            authorize(new AuthorityAction.Revoke(deviceIds.get(last), new Cutoff(w.nextSequence() - 1, w.previousEntryHash())));
            count("revocations");
        }
    }

    /** A forged signature, a non-canonical path and an entry of a device never authorized. */
    private void plantBadRecords() {
        Entry good = entries.get(entries.size() - 1);
        byte[] forged = good.signature();
        forged[7] ^= 0x20;
        entries.add(Entry.of(nextBody(good, "/forged"), forged));
        count("bad_signature");
        EntryBody badPath = nextBody(good, "/not/canonical/");
        entries.add(Entry.of(badPath, keys.get(0).sign(badPath.canonicalBytes())));
        count("invalid_entry");
        SigningKey stranger = Workload.key(shape.seed(), index, "stranger");
        DeviceWriter.Written unknown = DeviceWriter.genesis(identity, "dev_unknown")
                .write(stranger, new Operation.SetPath("/profile", Workload.cid(identity, 77, 0), Operation.Mode.SINGLETON), ++time, List.of());
        entries.add(unknown.entry());
        count("unknown_device");
    }

    private void authorize(AuthorityAction action) {
        AuthorityWriter.Written w = authority.write(root, action, ++time);
        authority = w.next();
        authorityRecords.add(w.record());
    }

    private void count(String what) {
        counts.merge(what, 1L, Long::sum);
    }

    /** A body one step after {@code after}, on the same device, with a different path. */
    private static EntryBody nextBody(Entry after, String path) {
        EntryBody b = after.body();
        return new EntryBody(b.recordType(), b.version(), b.identity(), b.deviceId(), b.deviceSequence() + 1, after.hash(),
                path.endsWith("/") ? new Operation.TombstonePath(path)
                        : new Operation.SetPath(path, Workload.cid(b.identity(), 55, 1), Operation.Mode.SINGLETON),
                b.createdAt() + 1, List.of());
    }
}
