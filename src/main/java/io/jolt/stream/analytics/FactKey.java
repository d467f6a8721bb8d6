package io.jolt.stream.analytics;

/**
 * What one count is of: a dimension and its value, as the aggregates' key
 * ({@code dimension/value}, e.g. {@code prefix/profile}); values may hold {@code /}, dimensions do not.
 */
public record FactKey(Dimension dimension, String value) {
    public String encode() {
        return dimension.wireName() + "/" + value;
    }

    public static FactKey decode(String key) {
        int slash = key.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not an analytics key: " + key);
        }
        Dimension dimension = Dimension.byWireName(key.substring(0, slash))
                .orElseThrow(() -> new IllegalArgumentException("no dimension in analytics key: " + key));
        return new FactKey(dimension, key.substring(slash + 1));
    }

    /** The device of an identity, as the device dimension names it. */
    public static String device(String identity, String deviceId) {
        return identity + "/" + deviceId;
    }
}
