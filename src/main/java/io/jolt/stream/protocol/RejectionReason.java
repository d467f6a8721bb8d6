package io.jolt.stream.protocol;

/** Why a received entry does not feed the merge (PROTOCOL §5, §9). */
public enum RejectionReason {
    UNKNOWN_DEVICE("unknown_device"),
    REVOKED_DEVICE("revoked_device"),
    BAD_SIGNATURE("bad_signature"),
    INVALID_ENTRY("invalid_entry"),
    FORK_DISCARDED("fork_discarded"),
    PENDING("pending");

    private final String wireName;

    RejectionReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
