package io.jolt.stream.protocol;

import java.security.SecureRandom;
import java.util.Arrays;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/** An Ed25519 private key (the 32-byte seed) for the tooling that writes records. */
public final class SigningKey {
    public static final int SEED_LENGTH = 32;

    private final byte[] seed;
    private final byte[] publicKey;

    private SigningKey(byte[] seed) {
        this.seed = seed;
        this.publicKey = new byte[PublicKey.LENGTH];
        Ed25519.generatePublicKey(seed, 0, publicKey, 0);
    }

    public static SigningKey generate(SecureRandom random) {
        byte[] seed = new byte[SEED_LENGTH];
        Ed25519.generatePrivateKey(random, seed);
        return new SigningKey(seed);
    }

    public static SigningKey fromSeed(byte[] seed) {
        if (seed.length != SEED_LENGTH) {
            throw new IllegalArgumentException("an Ed25519 seed has 32 bytes, got " + seed.length);
        }
        return new SigningKey(seed.clone());
    }

    public byte[] seed() {
        return seed.clone();
    }

    public byte[] publicKeyBytes() {
        return publicKey.clone();
    }

    public byte[] sign(byte[] message) {
        byte[] signature = new byte[Ed25519.SIGNATURE_SIZE];
        Ed25519.sign(seed, 0, message, 0, message.length, signature, 0);
        return signature;
    }

    @Override
    public String toString() {
        return "SigningKey[public " + Hex.encode(publicKey) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SigningKey k && Arrays.equals(seed, k.seed);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(publicKey);
    }
}
