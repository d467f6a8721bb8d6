package io.jolt.stream.analytics;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** A point in time as analysts write it, on the command line and in queries: an ISO-8601 instant or milliseconds since the epoch. */
public final class TimeArgument {
    private TimeArgument() {}

    /** @throws IllegalArgumentException naming the value, when it is neither */
    public static long parse(String value) {
        try {
            return !value.isEmpty() && value.chars().allMatch(Character::isDigit) ? Long.parseLong(value)
                    : Instant.parse(value.toUpperCase(Locale.ROOT)).toEpochMilli();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("not an ISO-8601 instant or ms since the epoch: " + value);
        }
    }
}
