package io.jolt.stream.protocol;

/**
 * A signed device-writer log entry: body, canonical body bytes, entry hash and signature. The
 * bytes are never re-normalised: what was signed is what is hashed.
 */
public final class Entry {
    public static final int SIGNATURE_LENGTH = Signed.SIGNATURE_LENGTH;

    private final EntryBody body;
    private final Signed signed;

    private Entry(EntryBody body, Signed signed) {
        this.body = body;
        this.signed = signed;
    }

    public static Entry of(EntryBody body, byte[] signature) {
        return new Entry(body, new Signed(body.canonicalBytes(), signature));
    }

    /** From the wire: the body bytes are kept exactly as received. */
    public static Entry decode(byte[] bodyBytes, byte[] signature) {
        return new Entry(EntryBody.decode(bodyBytes), new Signed(bodyBytes.clone(), signature));
    }

    /** The §8 wire form {@code bytes(body) ‖ signature[64]}. */
    public byte[] wire() {
        return signed.wire();
    }

    /** @throws DecodeException when the bytes are not one §8 EntryW */
    public static Entry fromWire(byte[] wire) {
        CanonicalReader in = new CanonicalReader(wire);
        Entry entry = read(in);
        in.end();
        return entry;
    }

    /** Reads one §8 EntryW from a longer input. */
    public static Entry read(CanonicalReader in) {
        Signed signed = Signed.read(in);
        return new Entry(EntryBody.decode(signed.bodyView()), signed);
    }

    public EntryBody body() {
        return body;
    }

    public byte[] bodyBytes() {
        return signed.bodyBytes();
    }

    public int bodyLength() {
        return signed.bodyLength();
    }

    public Hash hash() {
        return signed.hash();
    }

    public byte[] signature() {
        return signed.signature();
    }

    public String deviceId() {
        return body.deviceId();
    }

    public long sequence() {
        return body.deviceSequence();
    }

    public boolean signatureVerifies(PublicKey deviceKey, SignatureCheck check) {
        return check.verifies(signed, deviceKey);
    }

    /** Signature order for picking one of two valid copies of one body (PROTOCOL §8: the lesser). */
    public int compareSignature(Entry other) {
        return signed.compareSignature(other.signed);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && e.signed.sameAs(signed);
    }

    @Override
    public int hashCode() {
        return signed.identityHash();
    }

    @Override
    public String toString() {
        return "Entry[" + body.deviceId() + "#" + Long.toUnsignedString(body.deviceSequence()) + " " + signed.hash() + "]";
    }
}
