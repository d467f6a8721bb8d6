package io.jolt.stream.api;

/**
 * One client's token bucket on one route: {@code rate} tokens come back every second, at most
 * {@code burst} are held, and a request takes as many as it costs (a line of {@code POST
 * /v1/records}, or a sync request). A rate of 0 is no quota.
 */
public record Quota(long rate, long burst) {
    public Quota {
        if (rate < 0 || burst < 1) {
            throw new IllegalArgumentException("a quota needs a rate of at least 0 and a burst of at least 1, not " + rate + " and " + burst);
        }
    }

    boolean limits() {
        return rate > 0;
    }

    @Override
    public String toString() {
        return rate + "/s, burst " + burst;
    }
}
