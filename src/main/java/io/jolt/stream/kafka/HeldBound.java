package io.jolt.stream.kafka;

/**
 * How many entries that are not eligible (unknown_device, pending) the live side holds per
 * identity (PROTOCOL §5 allows a bound; what is dropped is reported, and from then on it is as if
 * it had never been received). Beyond {@code max}, the held entries with the greatest
 * (device_sequence, device_id, entry_hash) are dropped down to {@link #lowWater()}: the ones
 * nearest a root stay, since they are the ones a later Authorize or predecessor can admit, and
 * dropping in batches keeps the re-evaluation this costs rare.
 */
public record HeldBound(long max) {
    public static final HeldBound DEFAULT = new HeldBound(10_000);

    public HeldBound {
        if (max < 0) {
            throw new IllegalArgumentException(JoltConfig.HELD_MAX + " must be at least 0, not " + max);
        }
    }

    /** What is left after a drop: 90% of the bound. */
    long lowWater() {
        return max - max / 10;
    }
}
