package io.jolt.stream.protocol;

import static io.jolt.stream.protocol.DecodeException.Kind.LENGTH_OVERRUN;
import static io.jolt.stream.protocol.DecodeException.Kind.TRAILING_BYTES;
import static io.jolt.stream.protocol.DecodeException.Kind.TRUNCATED;
import static io.jolt.stream.protocol.DecodeException.Kind.UNEXPECTED_LITERAL;
import static io.jolt.stream.protocol.DecodeException.Kind.UNKNOWN_DISCRIMINATOR;

import java.util.Arrays;

/**
 * Reads the primitives of PROTOCOL §1, strictly: truncation, overrunning lengths, unknown
 * discriminators, malformed UTF-8 and (via {@link #end}) trailing bytes are {@link DecodeException}s.
 */
public final class CanonicalReader {
    private final byte[] input;
    private int position;

    public CanonicalReader(byte[] input) {
        this.input = input;
    }

    private void need(int count) {
        if (count < 0 || input.length - position < count) {
            throw new DecodeException(TRUNCATED, "needs " + count + " bytes at offset " + position
                    + ", " + (input.length - position) + " left");
        }
    }

    public int u8() {
        need(1);
        return input[position++] & 0xff;
    }

    public int uint16() {
        need(2);
        int value = ((input[position] & 0xff) << 8) | (input[position + 1] & 0xff);
        position += 2;
        return value;
    }

    public long uint64() {
        need(8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (input[position++] & 0xff);
        }
        return value;
    }

    public byte[] raw(int length) {
        need(length);
        byte[] out = Arrays.copyOfRange(input, position, position + length);
        position += length;
        return out;
    }

    public Hash hash() {
        return Hash.of(raw(Hash.LENGTH));
    }

    public void literal(String ascii) {
        need(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            if (input[position + i] != (byte) ascii.charAt(i)) {
                throw new DecodeException(UNEXPECTED_LITERAL, "expected the literal \"" + ascii + "\" at offset " + position);
            }
        }
        position += ascii.length();
    }

    /** A uint64 length that must fit in what is left of the input. */
    private int length() {
        long length = uint64();
        if (Long.compareUnsigned(length, input.length - position) > 0) {
            throw new DecodeException(LENGTH_OVERRUN, "length " + Long.toUnsignedString(length)
                    + " overruns the input at offset " + position);
        }
        return (int) length;
    }

    public byte[] bytes() {
        return raw(length());
    }

    public String string() {
        int length = length();
        String s = Utf8.decode(input, position, length);
        position += length;
        return s;
    }

    /** A list count; each element takes at least {@code minElementSize} bytes, so a count can be bounded. */
    public int count(int minElementSize) {
        long count = uint64();
        long left = input.length - position;
        if (Long.compareUnsigned(count, left / Math.max(1, minElementSize)) > 0) {
            throw new DecodeException(LENGTH_OVERRUN, "count " + Long.toUnsignedString(count)
                    + " overruns the input at offset " + position);
        }
        return (int) count;
    }

    public boolean presence() {
        int flag = u8();
        if (flag > 1) {
            throw new DecodeException(UNKNOWN_DISCRIMINATOR, "optional flag " + flag + " at offset " + (position - 1));
        }
        return flag == 1;
    }

    public Hash optionalHash() {
        return presence() ? hash() : null;
    }

    public int discriminator(int max) {
        int value = u8();
        if (value > max) {
            throw new DecodeException(UNKNOWN_DISCRIMINATOR, "discriminator " + value + " at offset " + (position - 1));
        }
        return value;
    }

    public boolean atEnd() {
        return position == input.length;
    }

    public void end() {
        if (position != input.length) {
            throw new DecodeException(TRAILING_BYTES, (input.length - position) + " trailing bytes at offset " + position);
        }
    }
}
