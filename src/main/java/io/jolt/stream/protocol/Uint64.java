package io.jolt.stream.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A uint64 (sequences, {@code created_at}) as an exact decimal: on the topics, an Avro {@code decimal(20,0)}
 * on bytes, so that every Avro reader gets the exact value, 0 to 2^64−1, where a {@code long}
 * would read 2^64−1 as −1 and a JavaScript reader refuse anything above 2^53. In Java the value
 * stays a {@code long} read unsigned (the protocol core's convention).
 */
public final class Uint64 {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    private Uint64() {}

    /** The decimal of an unsigned {@code long}. */
    public static BigDecimal decimal(long unsigned) {
        // Every output record carries one or two: below 2^63 (nearly all) no BigInteger is made.
        return unsigned >= 0 ? BigDecimal.valueOf(unsigned) : new BigDecimal(BigInteger.valueOf(unsigned).add(TWO_TO_64));
    }

    /** The decimal of an unsigned {@code long} that may be absent. */
    public static BigDecimal decimalOrNull(Long unsigned) {
        return unsigned == null ? null : decimal(unsigned);
    }

    /**
     * The unsigned {@code long} of a decimal read from a topic.
     *
     * @throws DecodeException (OUT_OF_RANGE) for a fraction, a negative value or one of 2^64 and beyond
     */
    public static long unsigned(BigDecimal decimal, String field) {
        BigInteger value;
        try {
            value = decimal.toBigIntegerExact();
        } catch (ArithmeticException e) {
            throw outOfRange(decimal, field);
        }
        if (value.signum() < 0 || value.bitLength() > 64) {
            throw outOfRange(decimal, field);
        }
        return value.longValue();
    }

    private static DecodeException outOfRange(BigDecimal decimal, String field) {
        return new DecodeException(DecodeException.Kind.OUT_OF_RANGE, field + " " + decimal.toPlainString() + " is not a uint64");
    }
}
