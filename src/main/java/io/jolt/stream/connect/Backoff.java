package io.jolt.stream.connect;

import java.time.Duration;

/** Exponential backoff from {@code initial}, doubling per consecutive failure, never above {@code max}. */
record Backoff(Duration initial, Duration max) {
    Duration after(int failures) {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        long millis = initial.toMillis() << Math.min(failures - 1, 30);
        return Duration.ofMillis(millis <= 0 ? max.toMillis() : Math.min(millis, max.toMillis()));
    }
}
