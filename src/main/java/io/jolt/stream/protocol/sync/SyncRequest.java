package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Hash;
import java.util.ArrayList;
import java.util.List;

/**
 * A delta-sync request (PROTOCOL §8). Pushed records stay raw signed bytes: they are untrusted
 * input, verified like any other record later, and a malformed one does not make the request
 * unreadable.
 */
public record SyncRequest(String identity, int maxOperationVersion, int maxSyncVersion, List<Cursor> cursors,
        List<SignedBytes> pushedAuthority, List<List<SignedBytes>> pushedLogs) {
    static final String DOMAIN = "jolt:device-writer-sync-request:v2";
    /** The media type of a request and a response as HTTP bodies (PROTOCOL §8). */
    public static final String MEDIA_TYPE = "application/vnd.jolt.device-writer-sync";

    /** {@code bytes(body) ‖ signature[64]} as received. */
    public record SignedBytes(byte[] body, byte[] signature) {
        void writeTo(CanonicalWriter out) {
            out.bytes(body).raw(signature);
        }

        static SignedBytes read(CanonicalReader in) {
            return new SignedBytes(in.bytes(), in.raw(64));
        }
    }

    public SyncRequest {
        cursors = List.copyOf(cursors);
        pushedAuthority = List.copyOf(pushedAuthority);
        pushedLogs = pushedLogs.stream().map(List::copyOf).toList();
    }

    public byte[] encode() {
        CanonicalWriter out = new CanonicalWriter().literal(DOMAIN).u8(0).string(identity)
                .uint16(maxOperationVersion).uint16(maxSyncVersion).uint64(cursors.size());
        cursors.forEach(c -> c.writeTo(out));
        out.uint64(pushedAuthority.size());
        pushedAuthority.forEach(a -> a.writeTo(out));
        out.uint64(pushedLogs.size());
        for (List<SignedBytes> log : pushedLogs) {
            out.uint64(log.size());
            log.forEach(e -> e.writeTo(out));
        }
        return out.toByteArray();
    }

    /** @throws io.jolt.stream.protocol.DecodeException when the bytes are not exactly one request */
    public static SyncRequest decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        in.literal(DOMAIN);
        in.literal("\0");
        String identity = in.string();
        int maxOperation = in.uint16();
        int maxSync = in.uint16();
        int cursorCount = in.count(8 + 8 + Hash.LENGTH);
        List<Cursor> cursors = new ArrayList<>(cursorCount);
        for (int i = 0; i < cursorCount; i++) {
            cursors.add(Cursor.read(in));
        }
        int authorityCount = in.count(72);
        List<SignedBytes> authority = new ArrayList<>(authorityCount);
        for (int i = 0; i < authorityCount; i++) {
            authority.add(SignedBytes.read(in));
        }
        int logCount = in.count(8);
        List<List<SignedBytes>> logs = new ArrayList<>(logCount);
        for (int i = 0; i < logCount; i++) {
            int entryCount = in.count(72);
            List<SignedBytes> log = new ArrayList<>(entryCount);
            for (int j = 0; j < entryCount; j++) {
                log.add(SignedBytes.read(in));
            }
            logs.add(log);
        }
        in.end();
        return new SyncRequest(identity, maxOperation, maxSync, cursors, authority, logs);
    }
}
