package io.jolt.stream.protocol;

import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * A usable Ed25519 public key (PROTOCOL §2): the canonical encoding of a point of prime order.
 * Only {@link #parse} creates one, so holding a {@code PublicKey} proves the usable-key check
 * passed. The decoded point is kept: verification then skips the point decompression.
 */
public final class PublicKey {
    public static final int LENGTH = 32;

    /** Ed25519 equations computed (signature checks and usable-key checks), remembered ones not counted. */
    private static final LongAdder CHECKS = new LongAdder();

    private final byte[] encoded;
    private final Ed25519.PublicPoint point;

    private PublicKey(byte[] encoded, Ed25519.PublicPoint point) {
        this.encoded = encoded;
        this.point = point;
    }

    /** The key, or empty when the 32 bytes are not a usable key (small order, torsion, non-canonical). */
    public static Optional<PublicKey> parse(byte[] raw32) {
        if (raw32.length != LENGTH) {
            return Optional.empty();
        }
        return VerifiedOnce.parse(raw32, PublicKey::check);
    }

    private static Optional<PublicKey> check(byte[] raw32) {
        CHECKS.increment();
        byte[] copy = raw32.clone();
        Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(copy, 0);
        return point == null ? Optional.empty() : Optional.of(new PublicKey(copy, point));
    }

    /**
     * Pure Ed25519 (RFC 8032, no context), cofactorless; rejects {@code S >= L} and non-canonical R.
     */
    public boolean verify(byte[] message, byte[] signature) {
        CHECKS.increment();
        return signature.length == Ed25519.SIGNATURE_SIZE
                && Ed25519.verify(signature, 0, point, message, 0, message.length);
    }

    /**
     * How many Ed25519 equations this process has computed so far: signature checks and usable-key
     * checks, each about one verify's work. What {@link VerifiedOnce} remembered is not counted.
     * The bench multiplies it by the raw verify cost to say how much of the CPU went to crypto.
     */
    public static long checksComputed() {
        return CHECKS.sum();
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
