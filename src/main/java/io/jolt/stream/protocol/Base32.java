package io.jolt.stream.protocol;

import java.util.Optional;

/** RFC 4648 base32, lowercase alphabet, no padding, unused trailing bits zero (PROTOCOL §2). */
public final class Base32 {
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

    private Base32() {}

    public static String encode(byte[] data) {
        StringBuilder out = new StringBuilder((data.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(ALPHABET.charAt((buffer >> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(ALPHABET.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }

    /** The bytes, or empty for a character outside the alphabet, an impossible length or non-zero trailing bits. */
    public static Optional<byte[]> decode(String text) {
        int bitCount = text.length() * 5;
        int rest = bitCount % 8;
        // A final group of 5 or more unused bits would encode nothing: not a canonical length.
        if (rest >= 5) {
            return Optional.empty();
        }
        byte[] out = new byte[bitCount / 8];
        int buffer = 0;
        int bits = 0;
        int index = 0;
        for (int i = 0; i < text.length(); i++) {
            int value = ALPHABET.indexOf(text.charAt(i));
            if (value < 0) {
                return Optional.empty();
            }
            buffer = (buffer << 5) | value;
            bits += 5;
            if (bits >= 8) {
                out[index++] = (byte) (buffer >> (bits - 8));
                bits -= 8;
                buffer &= (1 << bits) - 1;
            }
        }
        return buffer == 0 ? Optional.of(out) : Optional.empty();
    }
}
