package io.jolt.stream.protocol;

/** A device authorization record: body, its canonical bytes and record hash, and the root's signature. */
public final class AuthorityRecord {
    public static final int SIGNATURE_LENGTH = Signed.SIGNATURE_LENGTH;

    private final AuthorityBody body;
    private final Signed signed;

    private AuthorityRecord(AuthorityBody body, Signed signed) {
        this.body = body;
        this.signed = signed;
    }

    public static AuthorityRecord of(AuthorityBody body, byte[] signature) {
        return new AuthorityRecord(body, new Signed(body.canonicalBytes(), signature));
    }

    /** From the wire: canonical body bytes are kept exactly as received. */
    public static AuthorityRecord decode(byte[] bodyBytes, byte[] signature) {
        return new AuthorityRecord(AuthorityBody.decode(bodyBytes), new Signed(bodyBytes.clone(), signature));
    }

    /** The §8 wire form {@code bytes(body) ‖ signature[64]}. */
    public byte[] wire() {
        return signed.wire();
    }

    /** @throws DecodeException when the bytes are not one §8 AuthW */
    public static AuthorityRecord fromWire(byte[] wire) {
        CanonicalReader in = new CanonicalReader(wire);
        AuthorityRecord record = read(in);
        in.end();
        return record;
    }

    public static AuthorityRecord read(CanonicalReader in) {
        Signed signed = Signed.read(in);
        return new AuthorityRecord(AuthorityBody.decode(signed.bodyView()), signed);
    }

    public AuthorityBody body() {
        return body;
    }

    public byte[] bodyBytes() {
        return signed.bodyBytes();
    }

    public Hash hash() {
        return signed.hash();
    }

    public byte[] signature() {
        return signed.signature();
    }

    boolean signatureVerifies(PublicKey root, SignatureCheck check) {
        return check.verifies(signed, root);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthorityRecord r && r.signed.sameAs(signed);
    }

    @Override
    public int hashCode() {
        return signed.identityHash();
    }

    @Override
    public String toString() {
        return "AuthorityRecord[" + body + " " + signed.hash() + "]";
    }
}
