package io.jolt.stream.api;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;

/** A clock for token buckets that moves only when told, so that what a bucket holds is exact. */
final class ManualClock implements TimeMeter {
    private volatile long nanos;

    void advance(Duration by) {
        nanos += by.toNanos();
    }

    @Override
    public long currentTimeNanos() {
        return nanos;
    }

    @Override
    public boolean isWallClockBased() {
        return false;
    }
}
