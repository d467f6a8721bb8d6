package io.jolt.stream.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * Remembers what this process already proved with Ed25519: which 32-byte keys are usable, and
 * which (key, body hash, signature) triples verified. Both are pure functions of their inputs,
 * so remembering them changes no outcome; it spares an identity's re-evaluation the 60–100 µs
 * equation for every record it reads again, and a key's full-order check (more than a verify)
 * every time an authority is re-verified. A body is named by its BLAKE3 hash, so a remembered
 * triple cannot vouch for another body. Only verified signatures are remembered: a failure is
 * never cached into a success, and bad records are rare enough to check again. (An unusable key
 * is remembered as unusable: that check, too, depends on the 32 bytes alone.) Bounded, and safe
 * to share between stream threads.
 */
final class VerifiedOnce {
    /**
     * Verified triples, direct-mapped by the body hash (BLAKE3 output, uniform already): a slot
     * holds the whole 128-byte triple and is compared in full, so a slot can only ever vouch for
     * the very triple that verified. A collision evicts. Costs a 128-byte copy per first verify.
     */
    private static final int SLOTS = 1 << 17;
    private static final AtomicReferenceArray<byte[]> SIGNATURES = new AtomicReferenceArray<>(SLOTS);
    /** Key checks, least recently used out first. */
    private static final Map<ByteBuffer, Optional<PublicKey>> KEYS = Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Optional<PublicKey>> eldest) {
                    return size() > 1 << 14;
                }
            });

    private VerifiedOnce() {}

    static boolean verify(PublicKey key, Hash bodyHash, byte[] body, byte[] signature) {
        if (signature.length != 64) {
            return false;
        }
        byte[] triple = new byte[32 + 32 + 64];
        byte[] hash = bodyHash.bytes();
        System.arraycopy(key.bytes(), 0, triple, 0, 32);
        System.arraycopy(hash, 0, triple, 32, 32);
        System.arraycopy(signature, 0, triple, 64, 64);
        int slot = (((hash[0] & 0xff) << 16) | ((hash[1] & 0xff) << 8) | (hash[2] & 0xff)) & (SLOTS - 1);
        if (Arrays.equals(SIGNATURES.get(slot), triple)) {
            return true;
        }
        boolean ok = key.verify(body, signature);
        if (ok) {
            SIGNATURES.set(slot, triple);
        }
        return ok;
    }

    /** Forgets every remembered verdict (key checks too, though they are BouncyCastle's whatever the verifier). */
    static void forget() {
        for (int i = 0; i < SLOTS; i++) {
            SIGNATURES.set(i, null);
        }
        KEYS.clear();
    }

    static Optional<PublicKey> parse(byte[] raw32, Function<byte[], Optional<PublicKey>> check) {
        ByteBuffer raw = ByteBuffer.wrap(raw32.clone());
        Optional<PublicKey> known = KEYS.get(raw);
        if (known != null) {
            return known;
        }
        Optional<PublicKey> checked = check.apply(raw32);
        KEYS.put(raw, checked);
        return checked;
    }
}
