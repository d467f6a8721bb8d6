package io.jolt.stream.connect;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * One task's counters, registered with the worker's own metrics (KIP-877 plugin metrics: JMX
 * {@code kafka.connect:type=plugins,connector=...,task=...}, and any metrics reporter the worker
 * has). Rejections are counted by reason, each reason its own series: the rules of a supplied log
 * ({@code bad_signature}, {@code chain_break}, ...), {@code history_forgotten} and
 * {@code unsupported_level}; provider failures apart ({@code unreachable}, {@code http_503}, ...).
 */
final class SyncTaskMetrics {
    static final String PAGES = "pages-total";
    static final String ENTRIES = "entries-total";
    static final String AUTHORITY_RECORDS = "authority-records-total";
    static final String BYTES = "bytes-total";
    static final String REJECTIONS = "rejections-total";
    static final String FAILURES = "provider-failures-total";
    static final String FOLLOWED = "identities-followed";
    static final String LAGGING = "identities-lagging";

    private final PluginMetrics metrics;
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();

    SyncTaskMetrics(PluginMetrics metrics, LongSupplier followed, LongSupplier lagging) {
        this.metrics = metrics;
        gauge(FOLLOWED, "(provider, identity) pairs this task follows", Map.of(), followed);
        gauge(LAGGING, "pairs not synced within jolt.sync.lag.polls poll intervals", Map.of(), lagging);
        for (String name : new String[] {PAGES, ENTRIES, AUTHORITY_RECORDS, BYTES}) {
            counter(name, Map.of());
        }
    }

    void page(int bytes) {
        counter(PAGES, Map.of()).incrementAndGet();
        counter(BYTES, Map.of()).addAndGet(bytes);
    }

    void passed(int authorityRecords, int entries) {
        counter(AUTHORITY_RECORDS, Map.of()).addAndGet(authorityRecords);
        counter(ENTRIES, Map.of()).addAndGet(entries);
    }

    void rejected(String reason) {
        counter(REJECTIONS, Map.of("reason", reason)).incrementAndGet();
    }

    void failed(String reason) {
        counter(FAILURES, Map.of("reason", reason)).incrementAndGet();
    }

    /** Every rejection reason seen so far and its count, e.g. {bad_signature=2}. */
    Map<String, Long> rejectionsByReason() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((key, value) -> {
            if (key.startsWith(REJECTIONS + "{")) {
                out.put(key.substring(REJECTIONS.length() + "{reason=".length(), key.length() - 1), value.get());
            }
        });
        return out;
    }

    long get(String name, Map<String, String> tags) {
        AtomicLong value = counters.get(key(name, tags));
        return value == null ? 0 : value.get();
    }

    private AtomicLong counter(String name, Map<String, String> tags) {
        return counters.computeIfAbsent(key(name, tags), k -> {
            AtomicLong value = new AtomicLong();
            gauge(name, "cumulative " + name.replace("-total", "").replace('-', ' '), tags, value::get);
            return value;
        });
    }

    private void gauge(String name, String description, Map<String, String> tags, LongSupplier value) {
        if (metrics != null) {
            metrics.addMetric(metrics.metricName(name, description, new LinkedHashMap<>(tags)), (Gauge<Long>) (config, now) -> value.getAsLong());
        }
    }

    private static String key(String name, Map<String, String> tags) {
        return name + tags;
    }
}
