package io.jolt.stream.protocol;

/**
 * One received device-writer record, as far as it could be read. A decoder (JSON or binary)
 * produces these; the assembler classifies them.
 */
public sealed interface EntryInput {
    /** A readable signed entry; {@code defect} is a record-level defect the decoder found (else null). */
    record Signed(Entry entry, Defect defect) implements EntryInput {
        public Signed(Entry entry) {
            this(entry, null);
        }
    }

    /**
     * A record that cannot take part: its body or signature cannot be read. Fields that could not
     * be read are null; the entry hash is known when the body itself was readable. Without a body
     * hash, {@code source} (the hash of the raw record as received) tells duplicates apart from
     * distinct records.
     */
    record Unreadable(Hash entryHash, String deviceId, Long deviceSequence, Defect defect, String detail, Hash source)
            implements EntryInput {}
}
