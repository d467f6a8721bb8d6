package io.jolt.stream.connect;

import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.SyncPosition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link SyncPosition} as a Connect source offset, which may hold only primitive values: one
 * key per device, {@code cursor:<device_id>} and {@code floor:<device_id>}, each
 * {@code "<sequence> <hash>"} (the sequence a decimal uint64; a device_id has no space, PROTOCOL
 * §2), and {@code authority}, the chain head's hash. Written with every record, so a restart
 * resumes with a delta.
 */
final class PositionOffset {
    static final String VERSION = "v";
    static final String CURSOR = "cursor:";
    static final String FLOOR = "floor:";
    static final String AUTHORITY = "authority";

    private PositionOffset() {}

    static Map<String, Object> of(SyncPosition position) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(VERSION, 1);
        out.put(AUTHORITY, position.authorityHead() == null ? "" : position.authorityHead().hex());
        position.cursors().forEach(c -> out.put(CURSOR + c.deviceId(), point(c)));
        position.floors().forEach(c -> out.put(FLOOR + c.deviceId(), point(c)));
        return out;
    }

    /** The position an offset stored, or the start when there is none (a pair followed for the first time). */
    static SyncPosition read(Map<String, Object> offset) {
        if (offset == null) {
            return SyncPosition.START;
        }
        List<Cursor> cursors = new ArrayList<>();
        List<Cursor> floors = new ArrayList<>();
        offset.forEach((key, value) -> {
            if (key.startsWith(CURSOR)) {
                cursors.add(cursor(key.substring(CURSOR.length()), value.toString()));
            } else if (key.startsWith(FLOOR)) {
                floors.add(cursor(key.substring(FLOOR.length()), value.toString()));
            }
        });
        Object authority = offset.get(AUTHORITY);
        return new SyncPosition(cursors, authority == null || authority.toString().isEmpty() ? null : Hash.fromHex(authority.toString()), floors);
    }

    private static String point(Cursor c) {
        return Long.toUnsignedString(c.deviceSequence()) + " " + c.entryHash().hex();
    }

    private static Cursor cursor(String deviceId, String point) {
        int space = point.indexOf(' ');
        return new Cursor(deviceId, Long.parseUnsignedLong(point.substring(0, space)), Hash.fromHex(point.substring(space + 1)));
    }
}
