package io.jolt.stream.protocol;

import java.util.Arrays;

/** A device authorization record: body, its canonical bytes and record hash, and the root's signature. */
public final class AuthorityRecord {
    public static final int SIGNATURE_LENGTH = 64;

    private final AuthorityBody body;
    private final byte[] bodyBytes;
    private final Hash hash;
    private final byte[] signature;

    private AuthorityRecord(AuthorityBody body, byte[] bodyBytes, byte[] signature) {
        if (signature.length != SIGNATURE_LENGTH) {
            throw new IllegalArgumentException("a signature has 64 bytes");
        }
        this.body = body;
        this.bodyBytes = bodyBytes;
        this.hash = Hash.blake3(bodyBytes);
        this.signature = signature.clone();
    }

    public static AuthorityRecord of(AuthorityBody body, byte[] signature) {
        return new AuthorityRecord(body, body.canonicalBytes(), signature);
    }

    /** From the wire: canonical body bytes are kept exactly as received. */
    public static AuthorityRecord decode(byte[] bodyBytes, byte[] signature) {
        return new AuthorityRecord(AuthorityBody.decode(bodyBytes), bodyBytes.clone(), signature);
    }

    /** The §8 wire form {@code bytes(body) ‖ signature[64]}. */
    public byte[] wire() {
        return new CanonicalWriter(bodyBytes.length + 72).bytes(bodyBytes).raw(signature).toByteArray();
    }

    /** @throws DecodeException when the bytes are not one §8 AuthW */
    public static AuthorityRecord fromWire(byte[] wire) {
        CanonicalReader in = new CanonicalReader(wire);
        AuthorityRecord record = read(in);
        in.end();
        return record;
    }

    public static AuthorityRecord read(CanonicalReader in) {
        byte[] body = in.bytes();
        return new AuthorityRecord(AuthorityBody.decode(body), body, in.raw(SIGNATURE_LENGTH));
    }

    public AuthorityBody body() {
        return body;
    }

    public byte[] bodyBytes() {
        return bodyBytes.clone();
    }

    public Hash hash() {
        return hash;
    }

    public byte[] signature() {
        return signature.clone();
    }

    boolean signatureVerifies(PublicKey root) {
        return VerifiedOnce.verify(root, hash, bodyBytes, signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthorityRecord r && r.hash.equals(hash) && Arrays.equals(r.signature, signature);
    }

    @Override
    public int hashCode() {
        return hash.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "AuthorityRecord[" + body + " " + hash + "]";
    }
}
