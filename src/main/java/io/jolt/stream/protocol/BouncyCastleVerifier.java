package io.jolt.stream.protocol;

import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The definition of the signature rule: BouncyCastle 1.87's {@code Ed25519.verify} (pure Ed25519,
 * no context), which checks the cofactored equation, refuses {@code S >= L} and a non-canonical
 * {@code R}, and accepts an {@code R} with a torsion component, of small order, or the identity.
 */
public final class BouncyCastleVerifier implements Verifier {
    public static final BouncyCastleVerifier INSTANCE = new BouncyCastleVerifier();

    private BouncyCastleVerifier() {}

    @Override
    public boolean verify(PublicKey key, byte[] message, byte[] signature) {
        return signature.length == Ed25519.SIGNATURE_SIZE && Ed25519.verify(signature, 0, key.encoded(), 0, message, 0, message.length);
    }

    @Override
    public String name() {
        return "bouncycastle";
    }

    @Override
    public String toString() {
        return name();
    }
}
