package io.jolt.stream.protocol;

import java.util.Arrays;

/** A 32-byte BLAKE3 digest (entry hash, record hash, observed head), ordered by raw bytes. */
public final class Hash implements Comparable<Hash> {
    public static final int LENGTH = 32;

    private final byte[] bytes;

    private Hash(byte[] bytes) {
        this.bytes = bytes;
    }

    public static Hash of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a hash has 32 bytes, got " + bytes.length);
        }
        return new Hash(bytes.clone());
    }

    public static Hash fromHex(String hex) {
        return new Hash(Hex.decode(hex, LENGTH));
    }

    public static Hash blake3(byte[] message) {
        return new Hash(Crypto.blake3(message));
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    /** Writes the raw bytes without copying them. */
    void writeTo(CanonicalWriter out) {
        out.raw(bytes);
    }

    public String hex() {
        return Hex.encode(bytes);
    }

    @Override
    public int compareTo(Hash other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Hash h && Arrays.equals(bytes, h.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return hex();
    }
}
