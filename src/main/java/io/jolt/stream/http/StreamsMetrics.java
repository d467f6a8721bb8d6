package io.jolt.stream.http;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;

/** The Prometheus registry both services serve at {@code /metrics}, with Kafka Streams' own metrics bridged into it. */
public final class StreamsMetrics {
    /** The store-id tag of a key-value store's metrics; window and session stores name theirs differently. */
    private static final String STORE_ID = "rocksdb.state.id";

    private StreamsMetrics() {}

    /**
     * Kafka Streams tags a state metric by {@code rocksdb.state.id}, {@code rocksdb.window.state.id}
     * or {@code rocksdb.session.state.id} after the store's kind, under one metric name; Prometheus
     * wants one set of tag keys per name, so the bridge would drop every window store's metrics with
     * a warning. One key for all keeps them (each store's id is unique either way).
     */
    public static PrometheusMeterRegistry of(KafkaStreams streams) {
        PrometheusMeterRegistry registry = registry();
        new KafkaStreamsMetrics(streams).bindTo(registry);
        return registry;
    }

    /** The registry, its filters set before any meter is registered (a filter does not reach back). */
    static PrometheusMeterRegistry registry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config()
                .meterFilter(MeterFilter.renameTag("kafka.stream.state", "rocksdb.window.state.id", STORE_ID))
                .meterFilter(MeterFilter.renameTag("kafka.stream.state", "rocksdb.session.state.id", STORE_ID));
        return registry;
    }
}
