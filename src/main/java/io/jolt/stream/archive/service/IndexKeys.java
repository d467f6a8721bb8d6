package io.jolt.stream.archive.service;

import io.jolt.stream.avro.ArchiveKind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The byte layout of the archive index. A key is the identity (and, in the path index, the path),
 * each followed by a 0x00 byte, then the archive partition (4 bytes) and offset (8 bytes),
 * big-endian: RocksDB orders keys bytewise, so one identity's operations are one contiguous range
 * in archive order, and reading them costs what the identity holds, not what the archive holds.
 * A value is the archive timestamp (8 bytes), the kind (1 byte) and the path (UTF-8).
 */
final class IndexKeys {
    private static final int LOCATION_BYTES = Integer.BYTES + Long.BYTES;

    private IndexKeys() {}

    static Bytes operation(String identity, int partition, long offset) {
        return key(prefix(identity), partition, offset);
    }

    static Bytes pathOperation(String identity, String path, int partition, long offset) {
        return key(prefix(identity, path), partition, offset);
    }

    /** The first and last possible keys of the identity's range (inclusive, as {@code range} takes them). */
    static Bytes[] identityRange(String identity) {
        return range(prefix(identity));
    }

    static Bytes[] pathRange(String identity, String path) {
        return range(prefix(identity, path));
    }

    static byte[] value(long timestamp, ArchiveKind kind, String path) {
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Long.BYTES + 1 + p.length).putLong(timestamp).put((byte) kind.ordinal()).put(p).array();
    }

    static ArchiveLocation location(Bytes key, byte[] value) {
        ByteBuffer k = ByteBuffer.wrap(key.get(), key.get().length - LOCATION_BYTES, LOCATION_BYTES);
        ByteBuffer v = ByteBuffer.wrap(value);
        long timestamp = v.getLong();
        ArchiveKind kind = ArchiveKind.values()[v.get()];
        String path = new String(value, v.position(), v.remaining(), StandardCharsets.UTF_8);
        return new ArchiveLocation(k.getInt(), k.getLong(), timestamp, kind, path);
    }

    private static byte[] prefix(String... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String part : parts) {
            out.writeBytes(part.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    private static Bytes key(byte[] prefix, int partition, long offset) {
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + LOCATION_BYTES).put(prefix).putInt(partition).putLong(offset).array());
    }

    private static Bytes[] range(byte[] prefix) {
        byte[] last = ByteBuffer.allocate(prefix.length + LOCATION_BYTES).put(prefix).putInt(Integer.MAX_VALUE).putLong(Long.MAX_VALUE).array();
        return new Bytes[] {key(prefix, 0, 0), Bytes.wrap(last)};
    }
}
