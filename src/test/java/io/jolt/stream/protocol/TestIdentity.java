package io.jolt.stream.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds signed histories for tests with the same writers the tooling uses. Keys derive from a
 * seed name, so a history is reproducible.
 */
public final class TestIdentity {
    private final SigningKey root;
    private AuthorityWriter authority;
    private final Map<String, SigningKey> deviceKeys = new HashMap<>();
    private long clock = 1_764_547_200_000L;

    private TestIdentity(SigningKey root) {
        this.root = root;
        this.authority = AuthorityWriter.genesis(root);
    }

    public static TestIdentity named(String name) {
        return new TestIdentity(key(name));
    }

    public static SigningKey key(String name) {
        return SigningKey.fromSeed(Arrays.copyOf(Crypto.blake3(name.getBytes(StandardCharsets.UTF_8)), 32));
    }

    public String id() {
        return authority.identity();
    }

    public SigningKey rootKey() {
        return root;
    }

    public AuthorityRecord authorize(String deviceId) {
        SigningKey key = key(id() + "/" + deviceId);
        deviceKeys.put(deviceId, key);
        return authority(new AuthorityAction.Authorize(deviceId, key.publicKeyBytes()));
    }

    public AuthorityRecord revoke(String deviceId, Cutoff cutoff) {
        return authority(new AuthorityAction.Revoke(deviceId, cutoff));
    }

    public AuthorityRecord authority(AuthorityAction action) {
        AuthorityWriter.Written written = authority.write(root, action, clock++);
        authority = written.next();
        return written.record();
    }

    /** Continues the chain from another position (to build authority forks). */
    public void rewindAuthorityTo(AuthorityRecord record) {
        authority = new AuthorityWriter(id(), root.publicKeyBytes(), record.body().authoritySequence() + 1, record.hash());
    }

    public void rewindAuthorityToGenesis() {
        authority = AuthorityWriter.genesis(root);
    }

    public Device device(String deviceId) {
        SigningKey key = deviceKeys.computeIfAbsent(deviceId, d -> key(id() + "/" + d));
        return new Device(DeviceWriter.genesis(id(), deviceId), key);
    }

    /**
     * A writer of this device from any position: past a gap (its entries wait as pending) or at
     * a sequence no chain from 0 reaches, such as 2^64-1.
     */
    public Device deviceAt(String deviceId, long sequence, Hash previous) {
        SigningKey key = deviceKeys.computeIfAbsent(deviceId, d -> key(id() + "/" + d));
        return new Device(new DeviceWriter(id(), deviceId, sequence, previous), key);
    }

    /** A device writer; each call signs the next entry of its own position. */
    public final class Device {
        private DeviceWriter writer;
        private final SigningKey key;

        Device(DeviceWriter writer, SigningKey key) {
            this.writer = writer;
            this.key = key;
        }

        public Entry set(String path, String content, Hash... observed) {
            return write(new Operation.SetPath(path, cid(content), Operation.Mode.SINGLETON), observed);
        }

        public Entry append(String path, String content) {
            return write(new Operation.SetPath(path, cid(content), Operation.Mode.APPEND));
        }

        public Entry tombstone(String path, Hash... observed) {
            return write(new Operation.TombstonePath(path), observed);
        }

        public Entry write(Operation operation, Hash... observed) {
            return writeAt(clock++, operation, observed);
        }

        /** With an explicit created_at (writer clocks are signed metadata, free to tie or go back). */
        public Entry writeAt(long createdAt, Operation operation, Hash... observed) {
            DeviceWriter.Written written = writer.write(key, operation, createdAt, List.of(observed));
            writer = written.next();
            return written.entry();
        }

        /** A second writer at this device's current position: writing with both makes a fork. */
        public Device fork() {
            return new Device(writer, key);
        }

        public SigningKey key() {
            return key;
        }
    }

    public static String cid(String content) {
        return ContentId.ofRaw(content.getBytes(StandardCharsets.UTF_8));
    }

    /** The merged state of this identity from the given records (authority records, entries, inputs, lists of them). */
    public MergedState merge(Object... records) {
        List<AuthorityRecord> authorityRecords = new ArrayList<>();
        List<EntryInput> entries = new ArrayList<>();
        collect(List.of(records), authorityRecords, entries);
        return IdentityAssembler.assemble(id(), authorityRecords, entries, SignatureCheck.DEFINITION);
    }

    private static void collect(List<?> records, List<AuthorityRecord> authorityRecords, List<EntryInput> entries) {
        for (Object r : records) {
            if (r instanceof AuthorityRecord a) {
                authorityRecords.add(a);
            } else if (r instanceof Entry e) {
                entries.add(new EntryInput.Signed(e));
            } else if (r instanceof EntryInput i) {
                entries.add(i);
            } else if (r instanceof List<?> list) {
                collect(list, authorityRecords, entries);
            } else {
                throw new IllegalArgumentException("not a record: " + r);
            }
        }
    }
}
