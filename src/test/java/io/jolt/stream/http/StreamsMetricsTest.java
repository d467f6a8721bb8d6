package io.jolt.stream.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** A window store's state metrics are kept beside the key-value stores', under one set of tag keys. */
class StreamsMetricsTest {
    @Test
    void everyStoreKindIsScrapedUnderTheSameStoreTag() {
        PrometheusMeterRegistry registry = StreamsMetrics.registry();
        Gauge.builder("kafka.stream.state.record.e2e.latency.avg", () -> 1).tag("rocksdb.state.id", "jolt-heads").register(registry);
        Gauge.builder("kafka.stream.state.record.e2e.latency.avg", () -> 2).tag("rocksdb.window.state.id", "analytics-1m").register(registry);
        Gauge.builder("kafka.stream.state.record.e2e.latency.avg", () -> 3).tag("rocksdb.session.state.id", "sessions").register(registry);

        assertThat(registry.scrape()).contains(
                "kafka_stream_state_record_e2e_latency_avg{rocksdb_state_id=\"jolt-heads\"} 1.0",
                "kafka_stream_state_record_e2e_latency_avg{rocksdb_state_id=\"analytics-1m\"} 2.0",
                "kafka_stream_state_record_e2e_latency_avg{rocksdb_state_id=\"sessions\"} 3.0");
    }
}
