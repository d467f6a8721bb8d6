package io.jolt.stream.protocol;

import java.util.Arrays;

/**
 * A signed device-writer log entry: body, canonical body bytes, entry hash and signature. The
 * bytes are never re-normalised: what was signed is what is hashed.
 */
public final class Entry {
    public static final int SIGNATURE_LENGTH = 64;

    private final EntryBody body;
    private final byte[] bodyBytes;
    private final Hash hash;
    private final byte[] signature;

    private Entry(EntryBody body, byte[] bodyBytes, byte[] signature) {
        if (signature.length != SIGNATURE_LENGTH) {
            throw new IllegalArgumentException("a signature has 64 bytes");
        }
        this.body = body;
        this.bodyBytes = bodyBytes;
        this.hash = Hash.blake3(bodyBytes);
        this.signature = signature.clone();
    }

    public static Entry of(EntryBody body, byte[] signature) {
        return new Entry(body, body.canonicalBytes(), signature);
    }

    /** From the wire: the body bytes are kept exactly as received. */
    public static Entry decode(byte[] bodyBytes, byte[] signature) {
        return new Entry(EntryBody.decode(bodyBytes), bodyBytes.clone(), signature);
    }

    /** The §8 wire form {@code bytes(body) ‖ signature[64]}. */
    public byte[] wire() {
        return new CanonicalWriter(bodyBytes.length + 72).bytes(bodyBytes).raw(signature).toByteArray();
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
        byte[] body = in.bytes();
        return new Entry(EntryBody.decode(body), body, in.raw(SIGNATURE_LENGTH));
    }

    public EntryBody body() {
        return body;
    }

    public byte[] bodyBytes() {
        return bodyBytes.clone();
    }

    public int bodyLength() {
        return bodyBytes.length;
    }

    public Hash hash() {
        return hash;
    }

    public byte[] signature() {
        return signature.clone();
    }

    public String deviceId() {
        return body.deviceId();
    }

    public long sequence() {
        return body.deviceSequence();
    }

    public boolean signatureVerifies(PublicKey deviceKey) {
        return VerifiedOnce.verify(deviceKey, hash, bodyBytes, signature);
    }

    /** Signature order for picking one of two valid copies of one body (PROTOCOL §8: the lesser). */
    public int compareSignature(Entry other) {
        return Arrays.compareUnsigned(signature, other.signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && e.hash.equals(hash) && Arrays.equals(e.signature, signature);
    }

    @Override
    public int hashCode() {
        return hash.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "Entry[" + body.deviceId() + "#" + Long.toUnsignedString(body.deviceSequence()) + " " + hash + "]";
    }
}
