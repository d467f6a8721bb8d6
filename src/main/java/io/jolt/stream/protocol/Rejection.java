package io.jolt.stream.protocol;

import java.util.Comparator;

/**
 * One diagnostic row: a distinct record and why it is not eligible. Null fields could not be read.
 * {@code defect} names the broken rule of an {@code invalid_entry}.
 */
public record Rejection(Hash entryHash, String deviceId, Long deviceSequence, RejectionReason reason, Defect defect) {
    /** PROTOCOL §9: by (device_id, device_sequence, entry_hash), nulls first. */
    public static final Comparator<Rejection> ORDER = Comparator
            .comparing(Rejection::deviceId, Comparator.nullsFirst(Utf8.ORDER))
            .thenComparing(Rejection::deviceSequence, Comparator.nullsFirst(Long::compareUnsigned))
            .thenComparing(Rejection::entryHash, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Rejection::reason);

    public static Rejection of(Entry entry, RejectionReason reason) {
        return new Rejection(entry.hash(), entry.deviceId(), entry.sequence(), reason, null);
    }
}
