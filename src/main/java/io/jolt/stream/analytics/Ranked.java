package io.jolt.stream.analytics;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Comparator;

/** A value with its counts in a top-N: most events first, then by value, so that ties rank the same everywhere. */
public record Ranked(String value, long events, @JsonProperty("clock_sensitive") long clockSensitive) {
    public static final Comparator<Ranked> ORDER = Comparator.comparingLong(Ranked::events).reversed().thenComparing(Ranked::value);

    public static Ranked of(String value, Tally tally) {
        return new Ranked(value, tally.events(), tally.clockSensitive());
    }
}
