package io.jolt.stream.connect;

import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.SyncPosition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link SyncPosition} as a Connect source offset (a map of strings and lists, as the worker's
 * offsets topic stores it in JSON): {@code cursors} and {@code floors}, each a list of
 * {@code {device, sequence, hash}} (the sequence a decimal string: a uint64), and the
 * {@code authority} head's hash. Written with every record, so a restart resumes with a delta.
 */
final class PositionOffset {
    static final String VERSION = "v";
    static final String CURSORS = "cursors";
    static final String FLOORS = "floors";
    static final String AUTHORITY = "authority";

    private PositionOffset() {}

    static Map<String, Object> of(SyncPosition position) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(VERSION, 1);
        out.put(CURSORS, position.cursors().stream().map(PositionOffset::cursor).toList());
        out.put(FLOORS, position.floors().stream().map(PositionOffset::cursor).toList());
        out.put(AUTHORITY, position.authorityHead() == null ? "" : position.authorityHead().hex());
        return out;
    }

    /** The position an offset stored, or the start when there is none (a pair followed for the first time). */
    static SyncPosition read(Map<String, Object> offset) {
        if (offset == null) {
            return SyncPosition.START;
        }
        Object authority = offset.get(AUTHORITY);
        return new SyncPosition(cursors(offset.get(CURSORS)), authority == null || authority.toString().isEmpty() ? null : Hash.fromHex(authority.toString()),
                cursors(offset.get(FLOORS)));
    }

    private static Map<String, String> cursor(Cursor c) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("device", c.deviceId());
        out.put("sequence", Long.toUnsignedString(c.deviceSequence()));
        out.put("hash", c.entryHash().hex());
        return out;
    }

    private static List<Cursor> cursors(Object list) {
        if (!(list instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().map(i -> (Map<?, ?>) i)
                .map(m -> new Cursor(m.get("device").toString(), Long.parseUnsignedLong(m.get("sequence").toString()), Hash.fromHex(m.get("hash").toString())))
                .toList();
    }
}
