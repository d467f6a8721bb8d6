package io.jolt.stream.protocol;

import java.util.Arrays;

/** The signed part of a device authorization record (PROTOCOL §3), as read: values may still break rules. */
public record AuthorityBody(
        String recordType,
        int version,
        String identity,
        byte[] rootPublicKey,
        long authoritySequence,
        Hash previousRecordHash,
        AuthorityAction action,
        long createdAt) {

    public static final String RECORD_TYPE = "jolt.device_authorization";
    public static final int VERSION = 1;
    static final String DOMAIN = "jolt:device-authorization:v1";

    public AuthorityBody {
        if (rootPublicKey.length != PublicKey.LENGTH) {
            throw new IllegalArgumentException("a root public key has 32 bytes");
        }
        rootPublicKey = rootPublicKey.clone();
    }

    @Override
    public byte[] rootPublicKey() {
        return rootPublicKey.clone();
    }

    public byte[] canonicalBytes() {
        CanonicalWriter out = new CanonicalWriter(192)
                .literal(DOMAIN).u8(0)
                .string(recordType).uint16(version).string(identity)
                .raw(rootPublicKey).uint64(authoritySequence).optionalHash(previousRecordHash);
        action.writeTo(out);
        return out.uint64(createdAt).toByteArray();
    }

    /** @throws DecodeException when the bytes are not exactly one canonical authority body */
    public static AuthorityBody decode(byte[] bytes) {
        CanonicalReader in = new CanonicalReader(bytes);
        in.literal(DOMAIN);
        in.literal("\0");
        String recordType = in.string();
        int version = in.uint16();
        String identity = in.string();
        byte[] root = in.raw(PublicKey.LENGTH);
        long sequence = in.uint64();
        Hash previous = in.optionalHash();
        AuthorityAction action;
        if (in.discriminator(1) == 0) {
            action = new AuthorityAction.Authorize(in.string(), in.raw(PublicKey.LENGTH));
        } else {
            String deviceId = in.string();
            Cutoff cutoff = in.presence() ? new Cutoff(in.uint64(), in.hash()) : null;
            action = new AuthorityAction.Revoke(deviceId, cutoff);
        }
        long createdAt = in.uint64();
        in.end();
        return new AuthorityBody(recordType, version, identity, root, sequence, previous, action, createdAt);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthorityBody b && Arrays.equals(canonicalBytes(), b.canonicalBytes());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(canonicalBytes());
    }

    @Override
    public String toString() {
        return "AuthorityBody[" + identity + " #" + Long.toUnsignedString(authoritySequence) + " " + action + "]";
    }
}
