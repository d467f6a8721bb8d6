package io.jolt.stream.kafka;

import io.jolt.stream.protocol.Hash;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * State-store keys as length-prefixed byte tuples: each text or byte component is its 4-byte
 * length and its bytes, numbers are 8 bytes big-endian (so unsigned order is byte order), hashes
 * their 32 raw bytes. A key's prefix of whole components is itself a key: a prefix scan serves
 * "everything of an identity", "everything of a device", "everything of a path".
 */
public final class StoreKey {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(96);

    public static StoreKey of(String identity) {
        return new StoreKey().text(identity);
    }

    public StoreKey text(String value) {
        return bytes(value.getBytes(StandardCharsets.UTF_8));
    }

    public StoreKey bytes(byte[] value) {
        int n = value.length;
        out.write(n >>> 24);
        out.write(n >>> 16);
        out.write(n >>> 8);
        out.write(n);
        out.writeBytes(value);
        return this;
    }

    public StoreKey uint64(long value) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift));
        }
        return this;
    }

    public StoreKey hash(Hash hash) {
        out.writeBytes(hash.bytes());
        return this;
    }

    public Bytes toBytes() {
        return Bytes.wrap(out.toByteArray());
    }
}
