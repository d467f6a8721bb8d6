package io.jolt.stream.protocol.json;

import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Hash;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Utf8;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the fields of one §9 JSON object. A field that cannot be read as its type yields null
 * and is remembered, so a decoder can tell which fields of a record were unreadable.
 */
final class Fields {
    private static final Pattern UNSIGNED = Pattern.compile("0|[1-9][0-9]*");
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private final Map<String, Object> object;
    private final Set<String> read = new HashSet<>();
    private boolean failed;
    private String firstFailure;

    Fields(Map<String, Object> object) {
        this.object = object;
    }

    boolean failed() {
        return failed;
    }

    String firstFailure() {
        return firstFailure;
    }

    /** Keys present in the object that no reader asked for. */
    boolean hasUnknownKeys() {
        return !read.containsAll(object.keySet());
    }

    private Object raw(String key) {
        read.add(key);
        return object.get(key);
    }

    private <T> T fail(String key, String why) {
        if (!failed) {
            firstFailure = key + ": " + why;
        }
        failed = true;
        return null;
    }

    boolean isPresent(String key) {
        return object.containsKey(key);
    }

    boolean isNull(String key) {
        return object.get(key) == StrictJson.NULL;
    }

    String string(String key) {
        Object value = raw(key);
        if (!(value instanceof String s)) {
            return fail(key, value == null ? "missing" : "not a string");
        }
        return Utf8.isWellFormed(s) ? s : fail(key, "not well-formed Unicode");
    }

    Long uint64(String key) {
        Object value = raw(key);
        if (!(value instanceof StrictJson.Number n) || !n.integral() || !UNSIGNED.matcher(n.text()).matches()) {
            return fail(key, value == null ? "missing" : "not a non-negative integer literal");
        }
        BigInteger big = new BigInteger(n.text());
        return big.compareTo(UINT64_MAX) > 0 ? fail(key, "above 2^64-1") : big.longValue();
    }

    Integer uint16(String key) {
        Long value = uint64(key);
        if (value == null) {
            return null;
        }
        return Long.compareUnsigned(value, 0xffff) > 0 ? fail(key, "above 65535") : value.intValue();
    }

    byte[] hex(String key, int length) {
        String text = string(key);
        if (text == null) {
            return null;
        }
        try {
            return Hex.decode(text, length);
        } catch (DecodeException e) {
            return fail(key, e.getMessage());
        }
    }

    Hash hash(String key) {
        byte[] bytes = hex(key, Hash.LENGTH);
        return bytes == null ? null : Hash.of(bytes);
    }

    /** A hash that must be present and may be null; null is returned for both, {@link #failed} tells. */
    Hash nullableHash(String key) {
        if (isPresent(key) && isNull(key)) {
            read.add(key);
            return null;
        }
        return hash(key);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> object(String key) {
        Object value = raw(key);
        return value instanceof Map ? (Map<String, Object>) value : fail(key, value == null ? "missing" : "not an object");
    }

    @SuppressWarnings("unchecked")
    List<Object> array(String key) {
        Object value = raw(key);
        return value instanceof List ? (List<Object>) value : fail(key, value == null ? "missing" : "not an array");
    }

    /** Marks a key as defined by the protocol when the caller read it itself. */
    void known(String key) {
        read.add(key);
    }

    /** Marks the object as unreadable for a reason found by the caller. */
    void reject(String key, String why) {
        fail(key, why);
    }
}
