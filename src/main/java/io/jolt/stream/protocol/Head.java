package io.jolt.stream.protocol;

import java.util.Comparator;

/** A singleton candidate's place: the tuple that picks the current head (RFC-0008 §8). */
public record Head(String deviceId, long deviceSequence, Hash entryHash) {
    /** {@code (device_sequence, device_id, entry_hash)}: unsigned, UTF-8 bytes, raw bytes. */
    public static final Comparator<Head> ORDER = Comparator
            .<Head, Long>comparing(Head::deviceSequence, Long::compareUnsigned)
            .thenComparing(Head::deviceId, Utf8.ORDER)
            .thenComparing(Head::entryHash);

    public static Head of(Entry entry) {
        return new Head(entry.deviceId(), entry.sequence(), entry.hash());
    }
}
