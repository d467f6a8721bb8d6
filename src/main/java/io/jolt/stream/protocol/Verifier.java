package io.jolt.stream.protocol;

/**
 * The Ed25519 signature check of PROTOCOL §2, under a usable key: the cofactored equation
 * {@code [8][S]B = [8]R + [8][k]A}, {@code S < L}, canonical {@code R}. Every implementation
 * accepts exactly the signatures {@link BouncyCastleVerifier} (the definition) accepts: a
 * provider that drew the line elsewhere would split one signer's state from everyone else's.
 * Implementations must be safe to share between threads. (Whether a key is usable is BouncyCastle's
 * check alone, in {@link PublicKey#parse}: libsodium 1.0.18's {@code crypto_core_ed25519_is_valid_point}
 * accepts points with a component of order 2, which the rule refuses.)
 */
public interface Verifier {
    /** Whether {@code signature} (64 bytes) is valid for {@code message} under {@code key}. */
    boolean verify(PublicKey key, byte[] message, byte[] signature);

    /** A short name for logs and metrics ({@code jolt_verifier_info{impl}}). */
    String name();
}
