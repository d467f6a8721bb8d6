package io.jolt.stream.protocol;

import java.util.Comparator;

/** An eligible append SetPath as enumeration exposes it (PROTOCOL §6). */
public record AppendRecord(String path, String contentId, String deviceId, long deviceSequence, long createdAt, Hash entryHash) {
    /** Path bytes, then {@code (created_at, device_sequence, device_id, entry_hash)}. */
    public static final Comparator<AppendRecord> ORDER = Comparator
            .comparing(AppendRecord::path, Utf8.ORDER)
            .thenComparing(AppendRecord::createdAt, Long::compareUnsigned)
            .thenComparing(AppendRecord::deviceSequence, Long::compareUnsigned)
            .thenComparing(AppendRecord::deviceId, Utf8.ORDER)
            .thenComparing(AppendRecord::entryHash);

    /** @throws IllegalArgumentException when the entry is not an append SetPath */
    public static AppendRecord of(Entry entry) {
        if (!(entry.body().operation() instanceof Operation.SetPath set) || set.mode() != Operation.Mode.APPEND) {
            throw new IllegalArgumentException("not an append entry: " + entry);
        }
        return new AppendRecord(set.path(), set.contentId(), entry.deviceId(), entry.sequence(), entry.body().createdAt(), entry.hash());
    }

    /** Whether the record's path begins with the enumeration prefix (byte prefix). */
    public boolean matches(String prefix) {
        return path.startsWith(prefix);
    }
}
