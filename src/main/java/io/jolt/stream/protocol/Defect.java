package io.jolt.stream.protocol;

/** Why an entry is {@code invalid_entry} (PROTOCOL §5 step 2, first rule): one value per broken rule. */
public enum Defect {
    UNREADABLE_FIELD("a field cannot be read as its type"),
    UNKNOWN_FIELD("the record has a field the protocol does not define"),
    UNREADABLE_SIGNATURE("the signature is not 64 bytes of lowercase hex"),
    WRONG_RECORD_TYPE("record_type is not jolt.device_writer_log_entry"),
    WRONG_VERSION("version is not 1"),
    MALFORMED_IDENTITY("identity is not a well-formed IdentityId"),
    IDENTITY_MISMATCH("identity is not the identity of its group"),
    BAD_DEVICE_ID("device_id does not match [a-z0-9_][a-z0-9_.-]{0,63}"),
    NON_CANONICAL_PATH("path is not a canonical absolute path"),
    BAD_CONTENT_ID("content_id is not an admitted CIDv1"),
    PREVIOUS_HASH_AT_GENESIS("sequence 0 names a previous entry"),
    MISSING_PREVIOUS_HASH("a sequence above 0 names no previous entry"),
    NON_CANONICAL_HEADS("observed_heads are not strictly ascending");

    private final String description;

    Defect(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
