package io.jolt.stream.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
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

    @Test
    void kafkasClientMetricsAreNamedAsPrometheusWantsInSeconds() {
        PrometheusMeterRegistry registry = StreamsMetrics.registry();
        FunctionCounter.builder("kafka.producer.io.time.ns.total", this, x -> 5e9).description("time spent in I/O").register(registry);
        Gauge.builder("kafka.app.info.start.time.ms", () -> 7000).register(registry);
        Gauge.builder("kafka.consumer.connection.count", () -> 2).register(registry);
        Gauge.builder("jolt.verifier.info", () -> 1).description("ours, as it is").register(registry);

        String scraped = registry.scrape();
        assertThat(scraped).contains("kafka_producer_io_time_seconds_total 5.0", "# HELP kafka_producer_io_time_seconds_total time spent in I/O",
                "kafka_app_info_start_time_seconds 7.0", "# HELP kafka_app_info_start_time_seconds Kafka client metric kafka.app.info.start.time.ms",
                "kafka_consumer_connections 2.0", "# HELP jolt_verifier_info ours, as it is");
        assertThat(scraped).doesNotContain("_ns_", "_ms ", "connection_count");
    }
}
