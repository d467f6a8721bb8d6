package io.jolt.stream.protocol;

import org.bouncycastle.crypto.digests.Blake3Digest;

/** BLAKE3-256 from BouncyCastle (PROTOCOL §2). */
final class Crypto {
    private Crypto() {}

    static byte[] blake3(byte[] message) {
        Blake3Digest digest = new Blake3Digest(256);
        digest.update(message, 0, message.length);
        byte[] out = new byte[Hash.LENGTH];
        digest.doFinal(out, 0);
        return out;
    }
}
