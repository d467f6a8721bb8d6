package io.jolt.stream.protocol.sync;

import io.jolt.stream.protocol.Hash;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How far a requester that keeps no entries has verified one identity from one provider: a
 * cursor per device (the last entry verified on its eligible branch), the head of the authority
 * chain last passed on, and the floors below which the provider said it forgot a device's history
 * (410 {@code history_forgotten}). Small enough to be a Connect source offset; enough that the
 * next pull is a delta.
 */
public record SyncPosition(List<Cursor> cursors, Hash authorityHead, List<Cursor> floors) {
    private static final Comparator<Cursor> BY_DEVICE = Comparator.comparing(Cursor::deviceId);

    public static final SyncPosition START = new SyncPosition(List.of(), null, List.of());

    public SyncPosition {
        cursors = cursors.stream().sorted(BY_DEVICE).toList();
        floors = floors.stream().sorted(BY_DEVICE).toList();
    }

    public Optional<Cursor> cursor(String deviceId) {
        return cursors.stream().filter(c -> c.deviceId().equals(deviceId)).findFirst();
    }

    public Optional<Cursor> floor(String deviceId) {
        return floors.stream().filter(c -> c.deviceId().equals(deviceId)).findFirst();
    }

    /** The cursors to ask from: each device's cursor, or its forgotten floor where that is further on. */
    public List<Cursor> requestCursors() {
        Map<String, Cursor> out = new TreeMap<>();
        cursors.forEach(c -> out.put(c.deviceId(), c));
        for (Cursor f : floors) {
            Cursor c = out.get(f.deviceId());
            if (c == null || Long.compareUnsigned(c.deviceSequence(), f.deviceSequence()) < 0) {
                out.put(f.deviceId(), f);
            }
        }
        return List.copyOf(out.values());
    }

    /** Whether this requester holds {@code (sequence, hash)} of a device: its cursor, or a floor it asked from. */
    boolean holds(String deviceId, long sequence, Hash hash) {
        return requestCursors().stream().anyMatch(c -> c.deviceId().equals(deviceId) && c.deviceSequence() == sequence
                && c.entryHash().equals(hash));
    }
}
