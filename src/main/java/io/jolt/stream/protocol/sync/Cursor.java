package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import java.nio.charset.StandardCharsets;

/** A verified point in one device log: device, sequence and the exact entry hash (RFC-0008 §11). */
public record Cursor(String deviceId, long deviceSequence, Hash entryHash) {
    public static Cursor of(Entry entry) {
        return new Cursor(entry.deviceId(), entry.sequence(), entry.hash());
    }

    void writeTo(CanonicalWriter out) {
        out.string(deviceId).uint64(deviceSequence).raw(entryHash);
    }

    static Cursor read(CanonicalReader in) {
        return new Cursor(in.string(), in.uint64(), in.hash());
    }

    int encodedSize() {
        return 8 + deviceId.getBytes(StandardCharsets.UTF_8).length + 8 + Hash.LENGTH;
    }
}
