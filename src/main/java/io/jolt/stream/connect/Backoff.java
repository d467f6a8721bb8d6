package io.jolt.stream.connect;

import java.time.Duration;
import java.util.Optional;

/** Exponential backoff from {@code initial}, doubling per consecutive failure, never above {@code max} unless the provider asks for longer. */
record Backoff(Duration initial, Duration max) {
    Duration after(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        long millis = initial.toMillis() << Math.min(failures - 1, 30);
        return Duration.ofMillis(millis <= 0 ? max.toMillis() : Math.min(millis, max.toMillis()));
    }

    /** The wait after {@code failures} in a row: the backoff, or longer when the provider asked for longer ({@code Retry-After}). */
    Duration after(int failures, Optional<Duration> retryAfter) {
        Duration backoff = after(failures);
        return retryAfter.filter(asked -> asked.compareTo(backoff) > 0).orElse(backoff);
    }
}
