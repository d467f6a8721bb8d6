package io.jolt.stream.processor.store;

import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Hash;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * State-store keys as length-prefixed byte tuples: each text or byte component is its 4-byte
 * length and its bytes, numbers are 8 bytes big-endian (so unsigned order is byte order), hashes
 * their 32 raw bytes. A key's prefix of whole components is itself a key: a prefix scan serves
 * "everything of an identity", "everything of a device", "everything of a path".
 */
public final class StoreKey {
    // The protocol's byte writer, not a ByteArrayOutputStream: keys are built on every store access of the hot path,
    // and the stream's synchronized write per byte showed in its profile.
    private final CanonicalWriter out = new CanonicalWriter(96);

    public static StoreKey of(String identity) {
        return new StoreKey().text(identity);
    }

    /** The identity a key begins with. */
    public static String identityOf(Bytes key) {
        return read(key).text();
    }

    /** Reads {@code key} back, component by component, in the order it was written. */
    static Reader read(Bytes key) {
        return new Reader(ByteBuffer.wrap(key.get()));
    }

    /** The components of a key, read in order: each call reads the next. */
    static final class Reader {
        private final ByteBuffer key;

        private Reader(ByteBuffer key) {
            this.key = key;
        }

        String text() {
            byte[] bytes = new byte[key.getInt()];
            key.get(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** A component of {@link #orderedPath}: UTF-8 up to its 0x00 terminator. */
        String orderedPath() {
            int start = key.position();
            while (key.get() != 0) {
                // to the terminator
            }
            return new String(key.array(), start, key.position() - 1 - start, StandardCharsets.UTF_8);
        }

        long uint64() {
            return key.getLong();
        }

        Hash hash() {
            byte[] hash = new byte[Hash.LENGTH];
            key.get(hash);
            return Hash.of(hash);
        }
    }

    public StoreKey text(String value) {
        return bytes(value.getBytes(StandardCharsets.UTF_8));
    }

    public StoreKey bytes(byte[] value) {
        int n = value.length;
        out.u8(n >>> 24).u8(n >>> 16).u8(n >>> 8).u8(n).raw(value);
        return this;
    }

    /**
     * A path in byte order: its UTF-8 bytes and a 0x00 terminator. Canonical paths hold no code
     * point below U+0020, so the terminator sorts a path before its extensions, exactly UTF-8
     * byte order, and a path prefix (without terminator) is a scan prefix.
     */
    public StoreKey orderedPath(String path) {
        out.raw(path.getBytes(StandardCharsets.UTF_8)).u8(0);
        return this;
    }

    /** A path prefix for scans: the bytes without the terminator. */
    public StoreKey pathPrefix(String prefix) {
        out.raw(prefix.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    public StoreKey uint64(long value) {
        out.uint64(value);
        return this;
    }

    public StoreKey hash(Hash hash) {
        out.raw(hash);
        return this;
    }

    public Bytes toBytes() {
        return Bytes.wrap(out.toByteArray());
    }
}
