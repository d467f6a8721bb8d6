package io.jolt.stream.protocol;

/** Lowercase hexadecimal, the only byte notation of the JSON forms (PROTOCOL §9). */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * Decodes lowercase hex of exactly {@code length} bytes.
     *
     * @throws DecodeException for uppercase digits, odd or wrong lengths and any other character
     */
    public static byte[] decode(String text, int length) {
        if (text.length() != length * 2) {
            throw new DecodeException(DecodeException.Kind.MALFORMED_HEX,
                    "expected " + (length * 2) + " hex digits, got " + text.length());
        }
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) ((digit(text.charAt(2 * i)) << 4) | digit(text.charAt(2 * i + 1)));
        }
        return out;
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        throw new DecodeException(DecodeException.Kind.MALFORMED_HEX, "not a lowercase hex digit: " + c);
    }
}
