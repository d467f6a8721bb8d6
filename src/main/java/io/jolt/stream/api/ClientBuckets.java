package io.jolt.stream.api;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A token bucket per client for one {@link Quota} (Bucket4j's, refilled greedily: a token comes
 * back every 1/rate s rather than all of them once a second). Clients are remembered up to
 * {@link #CLIENTS}, the least recently seen forgotten first, so that requests from ever new
 * addresses cannot grow the map without bound (10,000 buckets are a few MB); a client forgotten
 * comes back with a full bucket, as it would have after burst/rate seconds idle.
 */
final class ClientBuckets {
    static final int CLIENTS = 10_000;

    private final Quota quota;
    private final TimeMeter clock;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > CLIENTS;
        }
    };

    ClientBuckets(Quota quota, TimeMeter clock) {
        this.quota = quota;
        this.clock = clock;
    }

    /**
     * Takes {@code cost} tokens (at most the burst) from the client's bucket: empty when they were
     * there, else how long until they will be (nothing is taken then).
     */
    Optional<Duration> take(String client, long cost) {
        if (cost > quota.burst()) {
            throw new IllegalArgumentException("a cost of " + cost + " never fits a burst of " + quota.burst());
        }
        ConsumptionProbe probe = bucket(client).tryConsumeAndReturnRemaining(cost);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    private Bucket bucket(String client) {
        synchronized (buckets) {
            return buckets.computeIfAbsent(client, c -> Bucket.builder().withCustomTimePrecision(clock)
                    .addLimit(limit -> limit.capacity(quota.burst()).refillGreedy(quota.rate(), Duration.ofSeconds(1))).build());
        }
    }
}
