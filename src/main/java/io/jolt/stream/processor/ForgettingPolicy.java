package io.jolt.stream.processor;

import java.time.Duration;

/**
 * What the live side may forget, and when; everything it forgets it reports on
 * {@code jolt.compactions.v2} and sends to the bolt as a Compact (which the bolt drops).
 *
 * <ul>
 *   <li>{@code heldMax}: how many entries that are not eligible (unknown_device, pending) it holds
 *       per identity (PROTOCOL §5 allows a bound; a dropped entry is as if never received). Beyond
 *       it, the held entries with the greatest (device_sequence, device_id, entry_hash) are
 *       dropped down to {@link #lowWater()}: the ones nearest a root stay, since a later
 *       Authorize or predecessor admits them first, and dropping in batches keeps the
 *       re-evaluation this costs rare.
 *   <li>{@code supersededRetention}: how long superseded singleton history is kept (by the
 *       entries' created_at); older, it is forgotten as {@link io.jolt.stream.protocol.CompactedHistory}
 *       describes. Null: kept for ever (the default). A sweep every {@code sweepInterval} visits
 *       a bounded batch of identities.
 * </ul>
 */
public record ForgettingPolicy(long heldMax, Duration supersededRetention, Duration sweepInterval) {
    /** The settings that choose the policy (read by the service's configuration). */
    public static final String HELD_MAX = "jolt.live.held.max";
    public static final String SUPERSEDED_RETENTION_MS = "jolt.live.superseded.retention.ms";
    public static final String SWEEP_INTERVAL_MS = "jolt.live.sweep.interval.ms";

    public static final ForgettingPolicy DEFAULT = new ForgettingPolicy(10_000, null, Duration.ofMinutes(1));

    public ForgettingPolicy {
        if (heldMax < 0) {
            throw new IllegalArgumentException(ForgettingPolicy.HELD_MAX + " must be at least 0, not " + heldMax);
        }
        if (supersededRetention != null && supersededRetention.isNegative()) {
            throw new IllegalArgumentException(ForgettingPolicy.SUPERSEDED_RETENTION_MS + " must be at least 0 (or -1: keep for ever)");
        }
        if (sweepInterval.isNegative() || sweepInterval.isZero()) {
            throw new IllegalArgumentException(ForgettingPolicy.SWEEP_INTERVAL_MS + " must be positive");
        }
    }

    public static ForgettingPolicy heldAtMost(long heldMax) {
        return new ForgettingPolicy(heldMax, DEFAULT.supersededRetention, DEFAULT.sweepInterval);
    }

    public ForgettingPolicy withSupersededRetention(Duration retention, Duration sweep) {
        return new ForgettingPolicy(heldMax, retention, sweep);
    }

    /** What is left after a drop: 90% of the bound. */
    long lowWater() {
        return heldMax - heldMax / 10;
    }

    boolean forgetsSupersededHistory() {
        return supersededRetention != null;
    }
}
