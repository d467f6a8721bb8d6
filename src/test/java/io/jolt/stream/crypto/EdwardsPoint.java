package io.jolt.stream.crypto;

import java.math.BigInteger;

/**
 * Just enough edwards25519 arithmetic (RFC 8032 §5.1, affine, BigInteger) to build the edge
 * signatures no signer makes by accident: an R with a torsion component, of small order, the
 * identity, or non-canonically encoded. Slow and simple on purpose: a reference for tests only.
 */
record EdwardsPoint(BigInteger x, BigInteger y) {
    static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    /** The order of the prime-order subgroup. */
    static final BigInteger L = BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));
    static final BigInteger D = BigInteger.valueOf(-121665).multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
    static final BigInteger SQRT_M1 = BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);
    static final EdwardsPoint IDENTITY = new EdwardsPoint(BigInteger.ZERO, BigInteger.ONE);

    EdwardsPoint add(EdwardsPoint o) {
        BigInteger dxy = D.multiply(x).multiply(o.x).multiply(y).multiply(o.y).mod(P);
        BigInteger x3 = x.multiply(o.y).add(y.multiply(o.x)).multiply(BigInteger.ONE.add(dxy).modInverse(P)).mod(P);
        BigInteger y3 = y.multiply(o.y).add(x.multiply(o.x)).multiply(BigInteger.ONE.subtract(dxy).mod(P).modInverse(P)).mod(P);
        return new EdwardsPoint(x3, y3);
    }

    EdwardsPoint times(BigInteger n) {
        EdwardsPoint result = IDENTITY;
        EdwardsPoint addend = this;
        for (int i = 0; i < n.bitLength(); i++) {
            if (n.testBit(i)) {
                result = result.add(addend);
            }
            addend = addend.add(addend);
        }
        return result;
    }

    /** The 32-byte encoding: y little-endian, the top bit the parity of x. */
    byte[] encode() {
        return encode(y, x.testBit(0));
    }

    /** Any 255-bit y (also y ≥ p, a non-canonical encoding) with a sign bit. */
    static byte[] encode(BigInteger y, boolean xOdd) {
        byte[] out = littleEndian(y);
        if (xOdd) {
            out[31] |= (byte) 0x80;
        }
        return out;
    }

    /** The point of a canonical encoding, or null when it is none. */
    static EdwardsPoint decode(byte[] encoded) {
        byte[] bytes = encoded.clone();
        boolean xOdd = (bytes[31] & 0x80) != 0;
        bytes[31] &= 0x7f;
        BigInteger y = fromLittleEndian(bytes);
        if (y.compareTo(P) >= 0) {
            return null;
        }
        BigInteger x = recoverX(y, xOdd);
        return x == null ? null : new EdwardsPoint(x, y);
    }

    /** The x of a point with this y and x's parity, or null when there is none. */
    static BigInteger recoverX(BigInteger y, boolean xOdd) {
        BigInteger u = y.multiply(y).subtract(BigInteger.ONE).mod(P);
        BigInteger v = D.multiply(y).multiply(y).add(BigInteger.ONE).mod(P);
        BigInteger x = u.multiply(v.modPow(BigInteger.valueOf(3), P)).multiply(u.multiply(v.modPow(BigInteger.valueOf(7), P))
                .modPow(P.subtract(BigInteger.valueOf(5)).shiftRight(3), P)).mod(P);
        BigInteger vxx = v.multiply(x).multiply(x).mod(P);
        if (!vxx.equals(u)) {
            if (!vxx.equals(u.negate().mod(P))) {
                return null;
            }
            x = x.multiply(SQRT_M1).mod(P);
        }
        if (x.signum() == 0 && xOdd) {
            return null;
        }
        return x.testBit(0) == xOdd ? x : P.subtract(x);
    }

    static BigInteger fromLittleEndian(byte[] bytes) {
        byte[] big = bytes.clone();
        for (int i = 0; i < big.length / 2; i++) {
            byte t = big[i];
            big[i] = big[big.length - 1 - i];
            big[big.length - 1 - i] = t;
        }
        return new BigInteger(1, big);
    }

    static byte[] littleEndian(BigInteger n) {
        byte[] big = n.toByteArray();
        byte[] out = new byte[32];
        for (int i = 0; i < Math.min(32, big.length); i++) {
            out[i] = big[big.length - 1 - i];
        }
        return out;
    }
}
