package io.jolt.stream.analytics;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * The windows aggregates are kept in: tumbling ten seconds, minutes and hours by the records'
 * timestamps, and running totals. Ten seconds serve a live view (the dashboard's last five
 * minutes): kept an hour, and not published to jolt.analytics.v1, whose readers are warehouses. A window takes late records for its grace period and is kept for its
 * retention; a record later than the grace still counts in the totals (and is dropped from the
 * window, as Kafka Streams' dropped-records metric says).
 */
public enum AnalyticsWindow {
    TEN_SECONDS("10s", Duration.ofSeconds(10), Duration.ofMinutes(1), Duration.ofHours(1)),
    MINUTE("1m", Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofDays(2)),
    HOUR("1h", Duration.ofHours(1), Duration.ofHours(6), Duration.ofDays(35)),
    TOTAL("total", null, null, null);

    private final String wireName;
    private final Duration size;
    private final Duration grace;
    private final Duration retention;

    AnalyticsWindow(String wireName, Duration size, Duration grace, Duration retention) {
        this.wireName = wireName;
        this.size = size;
        this.grace = grace;
        this.retention = retention;
    }

    /** As in {@code window=}: 10s, 1m, 1h, total. */
    public String wireName() {
        return wireName;
    }

    /** The window store (or, for totals, key-value store) of this window's counts. */
    public String storeName() {
        return "analytics-" + wireName;
    }

    /** Whether its counts' updates go to jolt.analytics.v1 (all but the live view's ten seconds). */
    public boolean isPublished() {
        return this != TEN_SECONDS;
    }

    public boolean isTimed() {
        return size != null;
    }

    public Duration size() {
        return size;
    }

    public Duration grace() {
        return grace;
    }

    public Duration retention() {
        return retention;
    }

    /** The start of the window holding {@code timestamp}. */
    public long startOf(long timestamp) {
        return Math.floorDiv(timestamp, size.toMillis()) * size.toMillis();
    }

    public static Optional<AnalyticsWindow> byWireName(String name) {
        return Arrays.stream(values()).filter(w -> w.wireName.equals(name)).findFirst();
    }
}
