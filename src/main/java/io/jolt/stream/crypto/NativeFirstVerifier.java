package io.jolt.stream.crypto;

import io.jolt.stream.protocol.BouncyCastleVerifier;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.Verifier;

/**
 * PROTOCOL §2's rule at libsodium's speed. libsodium's {@code crypto_sign_verify_detached} is
 * stricter than the rule: it checks the cofactorless equation {@code [S]B = R + [k]A} (which
 * implies the cofactored one) and refuses an {@code R} of small order, and like the rule it
 * refuses {@code S >= L} and a non-canonical {@code R}. So what it accepts the rule accepts, and
 * it decides acceptance alone; what it refuses may still be valid (an {@code R} with a torsion
 * component, of small order, the identity), so BouncyCastle, the definition, gives the verdict.
 * The accepted set is exactly BouncyCastle's: honest signatures pay libsodium's price, refused
 * ones pay both. Keys are not libsodium's to judge (see {@link Verifier}).
 */
public final class NativeFirstVerifier implements Verifier {
    NativeFirstVerifier() {
        Libsodium.load();
    }

    @Override
    public boolean verify(PublicKey key, byte[] message, byte[] signature) {
        if (signature.length != 64) {
            return false;
        }
        return libsodiumAccepts(key.bytes(), message, signature) || BouncyCastleVerifier.INSTANCE.verify(key, message, signature);
    }

    /** libsodium alone on raw bytes (also the bench's native crypto limit): not the rule, only its fast half. */
    public boolean libsodiumAccepts(byte[] publicKey, byte[] message, byte[] signature) {
        return Libsodium.crypto_sign_verify_detached(signature, message, message.length, publicKey) == 0;
    }

    @Override
    public String name() {
        return "native-first";
    }

    @Override
    public String toString() {
        return name();
    }
}
