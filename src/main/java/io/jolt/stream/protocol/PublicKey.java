package io.jolt.stream.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * A usable Ed25519 public key (PROTOCOL §2): the canonical encoding of a point of prime order.
 * Only {@link #parse} creates one, so holding a {@code PublicKey} proves the usable-key check
 * (BouncyCastle's {@code validatePublicKeyFull}, whatever the signature verifier) passed.
 */
public final class PublicKey {
    public static final int LENGTH = 32;

    /** Usable-key checks computed, remembered ones not counted. */
    private static final LongAdder KEY_CHECKS = new LongAdder();
    /**
     * What each 32 bytes were found to be, least recently used out first: a key's full-order check
     * costs more than a verify, and an authority is re-verified with every re-evaluation. The
     * verdict depends on the 32 bytes alone, so remembering it changes no outcome.
     */
    private static final Map<ByteBuffer, Optional<PublicKey>> KNOWN = Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Optional<PublicKey>> eldest) {
                    return size() > 1 << 14;
                }
            });

    private final byte[] encoded;

    private PublicKey(byte[] encoded) {
        this.encoded = encoded;
    }

    /** The key, or empty when the 32 bytes are not a usable key (small order, torsion, non-canonical). */
    public static Optional<PublicKey> parse(byte[] raw32) {
        if (raw32.length != LENGTH) {
            return Optional.empty();
        }
        ByteBuffer raw = ByteBuffer.wrap(raw32.clone());
        Optional<PublicKey> known = KNOWN.get(raw);
        if (known == null) { // checked outside the lock: two threads may both check a new key, with one verdict
            known = check(raw32);
            KNOWN.put(raw, known);
        }
        return known;
    }

    private static Optional<PublicKey> check(byte[] raw32) {
        KEY_CHECKS.increment();
        byte[] copy = raw32.clone();
        return Ed25519.validatePublicKeyFull(copy, 0) ? Optional.of(new PublicKey(copy)) : Optional.empty();
    }

    /** The 32 bytes, not copied: for the verifiers in this package. */
    byte[] encoded() {
        return encoded;
    }

    /** How many usable-key checks (BouncyCastle's full-order check, about 0.9 of a verify) this process has computed. */
    public static long keyChecksComputed() {
        return KEY_CHECKS.sum();
    }

    public byte[] bytes() {
        return encoded.clone();
    }

    public String hex() {
        return Hex.encode(encoded);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicKey k && Arrays.equals(encoded, k.encoded);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encoded);
    }

    @Override
    public String toString() {
        return hex();
    }
}
