package io.jolt.stream.protocol;

import java.util.Arrays;

/** Builds canonical bytes with the primitives of PROTOCOL §1. */
public final class CanonicalWriter {
    private byte[] buffer;
    private int size;

    public CanonicalWriter() {
        this(256);
    }

    public CanonicalWriter(int capacity) {
        buffer = new byte[capacity];
    }

    private void ensure(int extra) {
        if (size + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + extra));
        }
    }

    public CanonicalWriter u8(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    public CanonicalWriter uint16(int value) {
        ensure(2);
        buffer[size++] = (byte) (value >>> 8);
        buffer[size++] = (byte) value;
        return this;
    }

    /** Unsigned over the whole 64 bits: a Java long is read as uint64. */
    public CanonicalWriter uint64(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
        return this;
    }

    public CanonicalWriter raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, size, bytes.length);
        size += bytes.length;
        return this;
    }

    public CanonicalWriter raw(Hash hash) {
        hash.writeTo(this);
        return this;
    }

    /** A literal: its ASCII bytes, no length prefix. */
    public CanonicalWriter literal(String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            u8(ascii.charAt(i));
        }
        return this;
    }

    public CanonicalWriter string(String s) {
        return bytes(Utf8.encode(s));
    }

    public CanonicalWriter bytes(byte[] b) {
        uint64(b.length);
        return raw(b);
    }

    public CanonicalWriter optionalHash(Hash hash) {
        if (hash == null) {
            return u8(0);
        }
        u8(1);
        return raw(hash);
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }
}
