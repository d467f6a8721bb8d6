package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.CanonicalReader;
import io.jolt.stream.protocol.CanonicalWriter;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Hash;
import java.util.ArrayList;
import java.util.List;

/** A delta-sync response (PROTOCOL §8); {@code continuation} is null when absent. */
public record SyncResponse(int requiredOperationVersion, int syncVersion, List<Cursor> heads, List<Cursor> continuation,
        List<AuthorityRecord> authority, List<List<Entry>> deviceLogs) {
    static final String DOMAIN = "jolt:device-writer-sync-response:v2";

    public SyncResponse {
        heads = List.copyOf(heads);
        continuation = continuation == null ? null : List.copyOf(continuation);
        authority = List.copyOf(authority);
        deviceLogs = deviceLogs.stream().map(List::copyOf).toList();
    }

    public byte[] encode() {
        CanonicalWriter out = new CanonicalWriter(4096).literal(DOMAIN).u8(0).uint16(requiredOperationVersion).uint16(syncVersion)
                .uint64(heads.size());
        heads.forEach(c -> c.writeTo(out));
        if (continuation == null) {
            out.u8(0);
        } else {
            out.u8(1).uint64(continuation.size());
            continuation.forEach(c -> c.writeTo(out));
        }
        out.uint64(authority.size());
        authority.forEach(a -> out.raw(a.wire()));
        out.uint64(deviceLogs.size());
        for (List<Entry> log : deviceLogs) {
            out.uint64(log.size());
            log.forEach(e -> out.raw(e.wire()));
        }
        return out.toByteArray();
    }

    /** @throws io.jolt.stream.protocol.DecodeException when the bytes are not exactly one response */
    public static SyncResponse decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        in.literal(DOMAIN);
        in.literal("\0");
        int required = in.uint16();
        int sync = in.uint16();
        List<Cursor> heads = cursors(in);
        List<Cursor> continuation = in.presence() ? cursors(in) : null;
        int authorityCount = in.count(72);
        List<AuthorityRecord> authority = new ArrayList<>(authorityCount);
        for (int i = 0; i < authorityCount; i++) {
            authority.add(AuthorityRecord.read(in));
        }
        int logCount = in.count(8);
        List<List<Entry>> logs = new ArrayList<>(logCount);
        for (int i = 0; i < logCount; i++) {
            int entryCount = in.count(72);
            List<Entry> log = new ArrayList<>(entryCount);
            for (int j = 0; j < entryCount; j++) {
                log.add(Entry.read(in));
            }
            logs.add(log);
        }
        in.end();
        return new SyncResponse(required, sync, heads, continuation, authority, logs);
    }

    private static List<Cursor> cursors(CanonicalReader in) {
        int count = in.count(8 + 8 + Hash.LENGTH);
        List<Cursor> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(Cursor.read(in));
        }
        return out;
    }
}
