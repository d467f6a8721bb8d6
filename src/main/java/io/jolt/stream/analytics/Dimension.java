package io.jolt.stream.analytics;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a conflict (or a rejection, an archive loss, a compaction) is counted by. Conflicts count
 * by kind, identity, path prefix (first segment), path, device (identity/device_id: device ids
 * are scoped by their identity) and, for equivocations alone, equivocating device; the other
 * topics by their reason, kind or cause.
 */
public enum Dimension {
    KIND("kinds"),
    IDENTITY("identities"),
    PREFIX("prefixes"),
    PATH("paths"),
    DEVICE("devices"),
    EQUIVOCATOR("equivocators"),
    REJECTION("rejections"),
    LOSS("losses"),
    COMPACTION("compactions");

    private final String plural;

    Dimension(String plural) {
        this.plural = plural;
    }

    /** As in {@code by=}: kind, identity, prefix, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** As in {@code what=}: kinds, identities, prefixes, ... */
    public String plural() {
        return plural;
    }

    public static Optional<Dimension> byWireName(String name) {
        return Arrays.stream(values()).filter(d -> d.wireName().equals(name)).findFirst();
    }

    public static Optional<Dimension> byPlural(String name) {
        return Arrays.stream(values()).filter(d -> d.plural.equals(name)).findFirst();
    }
}
