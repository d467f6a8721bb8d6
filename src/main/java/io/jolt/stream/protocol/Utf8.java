package io.jolt.stream.protocol;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/** Strict UTF-8 and the protocol's string order (PROTOCOL §1, §2). */
public final class Utf8 {
    /**
     * UTF-8 byte order, which equals code point order. {@link String#compareTo} compares UTF-16
     * units and puts U+E000..U+FFFF after supplementary characters: wrong here.
     */
    public static final Comparator<String> ORDER = Utf8::compare;

    private Utf8() {}

    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /** Whether the string is a sequence of Unicode scalar values (no lone surrogates). */
    public static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** @throws DecodeException when the string holds a lone surrogate */
    public static byte[] encode(String s) {
        if (!isWellFormed(s)) {
            throw new DecodeException(DecodeException.Kind.MALFORMED_UTF8, "string holds a lone surrogate");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @throws DecodeException for any malformed sequence (overlong, surrogate, truncated) */
    public static String decode(byte[] bytes, int offset, int length) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new DecodeException(DecodeException.Kind.MALFORMED_UTF8, "malformed UTF-8");
        }
    }
}
