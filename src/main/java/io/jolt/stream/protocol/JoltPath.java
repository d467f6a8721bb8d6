package io.jolt.stream.protocol;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/** Canonical absolute paths (PROTOCOL §2): rejected when not canonical, never rewritten. */
public final class JoltPath {
    private JoltPath() {}

    public static boolean isCanonical(String path) {
        if (!Utf8.isWellFormed(path) || !path.startsWith("/") || path.endsWith("/")) {
            return false;
        }
        int length = path.getBytes(StandardCharsets.UTF_8).length;
        if (length < 2 || length > 1024) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return false;
            }
        }
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return Normalizer.isNormalized(path, Normalizer.Form.NFC);
    }

    /**
     * An enumeration prefix: {@code /}, or a canonical path optionally followed by {@code /}
     * (PROTOCOL §6).
     */
    public static boolean isPrefix(String prefix) {
        if (prefix.equals("/")) {
            return true;
        }
        String path = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return isCanonical(path);
    }

    /** The first segment of a canonical path, as a prefix: {@code /notes} for {@code /notes/1}, the path itself for {@code /profile}. */
    public static String firstSegment(String path) {
        int next = path.indexOf('/', 1);
        return next < 0 ? path : path.substring(0, next);
    }
}
