package io.jolt.stream.workload;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.ContentId;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.SigningKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
        List<IdentityScript> perIdentity = IntStream.range(0, shape.identities()).parallel()
                .mapToObj(i -> {
                    IdentityScript r = IdentityScript.play(shape, i);
                    progress.generated(1);
                    return r;
                }).toList();
        List<AuthorityRecord> authority = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        Map<String, Long> counts = new TreeMap<>();
        for (IdentityScript r : perIdentity) {
            authority.addAll(r.authority());
            entries.addAll(r.entries());
            r.counts().forEach((k, v) -> counts.merge(k, v, Long::sum));
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

    static SigningKey key(long seed, int index, String name) {
        byte[] seedBytes = Arrays.copyOf(Hash.blake3((seed + "/" + index + "/" + name).getBytes(StandardCharsets.UTF_8)).bytes(), 32);
        return SigningKey.fromSeed(seedBytes);
    }

    static String cid(String identity, int device, int step) {
        return ContentId.ofRaw(ByteBuffer.allocate(64).put(identity.getBytes(StandardCharsets.US_ASCII), 0, 32).putInt(device).putInt(step).array());
    }
}
