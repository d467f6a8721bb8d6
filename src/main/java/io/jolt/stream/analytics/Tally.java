package io.jolt.stream.analytics;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How many events were counted, and how many of them were clock sensitive (RFC-0003's v1 rule would disagree). */
public record Tally(long events, @JsonProperty("clock_sensitive") long clockSensitive) {
    public static final Tally ZERO = new Tally(0, 0);

    public static Tally one(boolean clockSensitive) {
        return new Tally(1, clockSensitive ? 1 : 0);
    }

    public Tally plus(Tally other) {
        return new Tally(events + other.events, clockSensitive + other.clockSensitive);
    }
}
