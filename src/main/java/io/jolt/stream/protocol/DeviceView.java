package io.jolt.stream.protocol;

/** A device as the merged state lists it (PROTOCOL §9): status and the end of its eligible branch. */
public record DeviceView(String deviceId, Status status, Head head) {
    public enum Status {
        ACTIVE("active"),
        REVOKED("revoked"),
        UNKNOWN("unknown");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
