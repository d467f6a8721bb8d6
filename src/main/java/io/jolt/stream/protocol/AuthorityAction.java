package io.jolt.stream.protocol;

import java.util.Arrays;

/** What an authority record does to one device (PROTOCOL §3). */
public sealed interface AuthorityAction {
    String deviceId();

    void writeTo(CanonicalWriter out);

    /** Admits a device with its signing key; the key must be usable for the branch to stand. */
    record Authorize(String deviceId, byte[] devicePublicKey) implements AuthorityAction {
        public Authorize {
            if (devicePublicKey.length != PublicKey.LENGTH) {
                throw new IllegalArgumentException("a device public key has 32 bytes");
            }
            devicePublicKey = devicePublicKey.clone();
        }

        @Override
        public byte[] devicePublicKey() {
            return devicePublicKey.clone();
        }

        @Override
        public void writeTo(CanonicalWriter out) {
            out.u8(0x00).string(deviceId).raw(devicePublicKey);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Authorize a && a.deviceId.equals(deviceId) && Arrays.equals(a.devicePublicKey, devicePublicKey);
        }

        @Override
        public int hashCode() {
            return deviceId.hashCode() * 31 + Arrays.hashCode(devicePublicKey);
        }

        @Override
        public String toString() {
            return "Authorize[" + deviceId + ", " + Hex.encode(devicePublicKey) + "]";
        }
    }

    /** Ends a device's authority; a cutoff keeps its history up to a pinned entry, none keeps nothing. */
    record Revoke(String deviceId, Cutoff cutoff) implements AuthorityAction {
        @Override
        public void writeTo(CanonicalWriter out) {
            out.u8(0x01).string(deviceId);
            if (cutoff == null) {
                out.u8(0);
            } else {
                out.u8(1).uint64(cutoff.deviceSequence()).raw(cutoff.entryHash());
            }
        }
    }
}
