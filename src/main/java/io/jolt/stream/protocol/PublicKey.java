package io.jolt.stream.protocol;

import java.util.Arrays;
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

    /** Signature checks and usable-key checks computed, remembered ones not counted. */
    private static final LongAdder SIGNATURE_CHECKS = new LongAdder();
    private static final LongAdder KEY_CHECKS = new LongAdder();

    private final byte[] encoded;

    private PublicKey(byte[] encoded) {
        this.encoded = encoded;
    }

    /** The key, or empty when the 32 bytes are not a usable key (small order, torsion, non-canonical). */
    public static Optional<PublicKey> parse(byte[] raw32) {
        if (raw32.length != LENGTH) {
            return Optional.empty();
        }
        return VerifiedOnce.parse(raw32, PublicKey::check);
    }

    private static Optional<PublicKey> check(byte[] raw32) {
        KEY_CHECKS.increment();
        byte[] copy = raw32.clone();
        return Ed25519.validatePublicKeyFull(copy, 0) ? Optional.of(new PublicKey(copy)) : Optional.empty();
    }

    /** PROTOCOL §2's check of a signature under this key, by the process's {@link Signatures#verifier()}. */
    public boolean verify(byte[] message, byte[] signature) {
        SIGNATURE_CHECKS.increment();
        return Signatures.verifier().verify(this, message, signature);
    }

    /** The 32 bytes, not copied: for the verifiers in this package. */
    byte[] encoded() {
        return encoded;
    }

    /**
     * How many signature checks this process has computed so far (what {@link VerifiedOnce}
     * remembered is not counted). The bench multiplies it by the raw verify cost to say how much
     * of the CPU went to crypto.
     */
    public static long signatureChecksComputed() {
        return SIGNATURE_CHECKS.sum();
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
