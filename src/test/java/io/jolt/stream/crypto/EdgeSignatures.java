package io.jolt.stream.crypto;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Signatures of every kind the rule must draw its line through, made with a chosen nonce where a
 * signer would have to try: honest ones, one flipped bit in R, in S or in the message, S + L, a
 * random R, an R with a torsion component, a small-order R, the identity as R, and a non-canonical
 * encoding of R. Deterministic for a seed.
 */
final class EdgeSignatures {
    enum Kind {
        VALID, FLIPPED_R, FLIPPED_S, FLIPPED_MESSAGE, S_PLUS_L, RANDOM_R, TORSION_R, SMALL_ORDER_R, IDENTITY_R, NON_CANONICAL_R
    }

    /** One signature to judge: a usable key, a message, and 64 bytes. */
    record Case(Kind kind, byte[] publicKey, byte[] message, byte[] signature) {}

    /** The eight points of small order (the identity first), as "Taming the many EdDSAs" lists their encodings. */
    static final List<EdwardsPoint> SMALL_ORDER = smallOrderPoints();

    /** Encodings of R with y ≥ p that still name a point (y - p < 19): not canonical. */
    static final List<byte[]> NON_CANONICAL = nonCanonicalEncodings();

    private final Random random;
    private final MessageDigest sha512;

    EdgeSignatures(long seed) {
        this.random = new Random(seed);
        try {
            this.sha512 = MessageDigest.getInstance("SHA-512");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Case next(Kind kind) {
        byte[] seed = bytes(32);
        byte[] publicKey = new byte[32];
        Ed25519.generatePublicKey(seed, 0, publicKey, 0);
        byte[] message = bytes(40 + random.nextInt(260));
        byte[] signature = switch (kind) {
            case VALID -> honest(seed, message);
            case FLIPPED_R -> flip(honest(seed, message), random.nextInt(256));
            case FLIPPED_S -> flip(honest(seed, message), 256 + random.nextInt(256));
            case FLIPPED_MESSAGE -> honest(seed, flip(message.clone(), random.nextInt(message.length * 8)));
            case S_PLUS_L -> plusL(honest(seed, message));
            case RANDOM_R -> withR(honest(seed, message), bytes(32));
            case TORSION_R -> withNonce(seed, publicKey, message, nonce().add(SMALL_ORDER.get(1 + random.nextInt(7))).encode());
            case SMALL_ORDER_R -> withScalarOnly(seed, publicKey, message, SMALL_ORDER.get(1 + random.nextInt(7)).encode());
            case IDENTITY_R -> withScalarOnly(seed, publicKey, message, EdwardsPoint.IDENTITY.encode());
            case NON_CANONICAL_R -> withScalarOnly(seed, publicKey, message, NON_CANONICAL.get(random.nextInt(NON_CANONICAL.size())));
        };
        return new Case(kind, publicKey, message, signature);
    }

    private byte[] honest(byte[] seed, byte[] message) {
        byte[] signature = new byte[64];
        Ed25519.sign(seed, 0, message, 0, message.length, signature, 0);
        return signature;
    }

    /** A fresh nonce r, remembered as the scalar of the point returned ([r]B). */
    private BigInteger nonceScalar;

    private EdwardsPoint nonce() {
        byte[] nonceSeed = bytes(32);
        byte[] rB = new byte[32];
        Ed25519.generatePublicKey(nonceSeed, 0, rB, 0);
        nonceScalar = secretScalar(nonceSeed);
        return EdwardsPoint.decode(rB);
    }

    /** S = r + k·a for the chosen R = [r]B + T: [8][S]B = [8]R + [8][k]A holds, [S]B = R + [k]A does not. */
    private byte[] withNonce(byte[] seed, byte[] publicKey, byte[] message, byte[] r) {
        BigInteger s = nonceScalar.add(challenge(r, publicKey, message).multiply(secretScalar(seed))).mod(EdwardsPoint.L);
        return concat(r, EdwardsPoint.littleEndian(s));
    }

    /** S = k·a: for a small-order R, [8][S]B = [8][k]A = [8]R + [8][k]A. */
    private byte[] withScalarOnly(byte[] seed, byte[] publicKey, byte[] message, byte[] r) {
        BigInteger s = challenge(r, publicKey, message).multiply(secretScalar(seed)).mod(EdwardsPoint.L);
        return concat(r, EdwardsPoint.littleEndian(s));
    }

    /** k = SHA-512(R ‖ A ‖ M) mod L. */
    private BigInteger challenge(byte[] r, byte[] publicKey, byte[] message) {
        sha512.reset();
        sha512.update(r);
        sha512.update(publicKey);
        sha512.update(message);
        return EdwardsPoint.fromLittleEndian(sha512.digest()).mod(EdwardsPoint.L);
    }

    /** RFC 8032 §5.1.5: the clamped lower half of SHA-512(seed). */
    private BigInteger secretScalar(byte[] seed) {
        sha512.reset();
        byte[] h = Arrays.copyOf(sha512.digest(seed), 32);
        h[0] &= (byte) 248;
        h[31] &= 127;
        h[31] |= 64;
        return EdwardsPoint.fromLittleEndian(h);
    }

    private static byte[] plusL(byte[] signature) {
        BigInteger s = EdwardsPoint.fromLittleEndian(Arrays.copyOfRange(signature, 32, 64)).add(EdwardsPoint.L);
        return concat(Arrays.copyOf(signature, 32), EdwardsPoint.littleEndian(s));
    }

    private static byte[] withR(byte[] signature, byte[] r) {
        return concat(r, Arrays.copyOfRange(signature, 32, 64));
    }

    private static byte[] flip(byte[] bytes, int bit) {
        bytes[bit / 8] ^= (byte) (1 << (bit % 8));
        return bytes;
    }

    private static byte[] concat(byte[] r, byte[] s) {
        byte[] out = Arrays.copyOf(r, 64);
        System.arraycopy(s, 0, out, 32, 32);
        return out;
    }

    private byte[] bytes(int n) {
        byte[] out = new byte[n];
        random.nextBytes(out);
        return out;
    }

    private static List<EdwardsPoint> smallOrderPoints() {
        HexFormat hex = HexFormat.of();
        List<EdwardsPoint> points = new ArrayList<>();
        for (String encoded : List.of(
                "0100000000000000000000000000000000000000000000000000000000000000",
                "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                "0000000000000000000000000000000000000000000000000000000000000000",
                "0000000000000000000000000000000000000000000000000000000000000080",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
                "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
                "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85")) {
            points.add(EdwardsPoint.decode(hex.parseHex(encoded)));
        }
        return List.copyOf(points);
    }

    private static List<byte[]> nonCanonicalEncodings() {
        List<byte[]> out = new ArrayList<>();
        for (int small = 0; small < 19; small++) {
            BigInteger y = BigInteger.valueOf(small);
            for (boolean odd : new boolean[] {false, true}) {
                if (EdwardsPoint.recoverX(y, odd) != null) {
                    out.add(EdwardsPoint.encode(y.add(EdwardsPoint.P), odd));
                }
            }
        }
        return List.copyOf(out);
    }
}
