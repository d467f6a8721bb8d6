package io.jolt.stream.protocol;

import java.nio.charset.StandardCharsets;

/** IdentityId: {@code "jolt1" + base32(H("jolt:identity:v1" ‖ 0x00 ‖ root_public_key))} (PROTOCOL §2). */
public final class IdentityId {
    private static final String PREFIX = "jolt1";
    private static final int ENCODED_HASH_LENGTH = 52;

    private IdentityId() {}

    public static String derive(byte[] rootPublicKey) {
        byte[] domain = "jolt:identity:v1".getBytes(StandardCharsets.US_ASCII);
        byte[] input = new CanonicalWriter(domain.length + 1 + rootPublicKey.length)
                .raw(domain).u8(0).raw(rootPublicKey).toByteArray();
        return PREFIX + Base32.encode(Crypto.blake3(input));
    }

    /** "jolt1" followed by exactly the 52 canonical base32 characters of a 32-byte hash. */
    public static boolean isWellFormed(String identity) {
        return identity.length() == PREFIX.length() + ENCODED_HASH_LENGTH
                && identity.startsWith(PREFIX)
                && Base32.decode(identity.substring(PREFIX.length())).isPresent();
    }
}
