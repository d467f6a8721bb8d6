package io.jolt.stream.protocol;

import java.util.Arrays;

/**
 * What every signed Jolt record is (PROTOCOL §2, §8): canonical body bytes kept exactly as
 * received, their BLAKE3 hash, and a 64-byte Ed25519 signature over them. The bytes are never
 * re-normalised: what was signed is what is hashed. {@link Entry} and {@link AuthorityRecord}
 * each add their decoded body.
 */
final class Signed {
    static final int SIGNATURE_LENGTH = 64;

    private final byte[] body;
    private final Hash hash;
    private final byte[] signature;

    /** @param body canonical body bytes, owned from now on (callers pass a copy) */
    Signed(byte[] body, byte[] signature) {
        if (signature.length != SIGNATURE_LENGTH) {
            throw new IllegalArgumentException("a signature has 64 bytes");
        }
        this.body = body;
        this.hash = Hash.blake3(body);
        this.signature = signature.clone();
    }

    /** Reads {@code bytes(body) ‖ signature[64]} from a longer input. */
    static Signed read(CanonicalReader in) {
        byte[] body = in.bytes();
        return new Signed(body, in.raw(SIGNATURE_LENGTH));
    }

    /** The §8 wire form {@code bytes(body) ‖ signature[64]}. */
    byte[] wire() {
        return new CanonicalWriter(body.length + 72).bytes(body).raw(signature).toByteArray();
    }

    /** The body bytes, not copied: for decoding and hashing only. */
    byte[] bodyView() {
        return body;
    }

    byte[] bodyBytes() {
        return body.clone();
    }

    int bodyLength() {
        return body.length;
    }

    Hash hash() {
        return hash;
    }

    byte[] signature() {
        return signature.clone();
    }

    /** The signature, not copied: for the signature check only. */
    byte[] signatureView() {
        return signature;
    }

    int compareSignature(Signed other) {
        return Arrays.compareUnsigned(signature, other.signature);
    }

    /** The same body under the same signature. */
    boolean sameAs(Signed other) {
        return hash.equals(other.hash) && Arrays.equals(signature, other.signature);
    }

    int identityHash() {
        return hash.hashCode() * 31 + Arrays.hashCode(signature);
    }
}
