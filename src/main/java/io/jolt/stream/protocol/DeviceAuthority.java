package io.jolt.stream.protocol;

/** A device on the chosen authority branch: its key and status; a revoked device may keep a cutoff. */
public record DeviceAuthority(String deviceId, PublicKey key, Status status, Cutoff cutoff) {
    public enum Status {
        ACTIVE,
        REVOKED
    }

    static DeviceAuthority active(String deviceId, PublicKey key) {
        return new DeviceAuthority(deviceId, key, Status.ACTIVE, null);
    }

    DeviceAuthority revoked(Cutoff cutoff) {
        return new DeviceAuthority(deviceId, key, Status.REVOKED, cutoff);
    }

    public boolean isActive() {
        return status == Status.ACTIVE;
    }
}
