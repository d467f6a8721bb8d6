package io.jolt.stream.api;

import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.processor.ProcessorMetrics;
import io.jolt.stream.protocol.SignatureCheck;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The processor's counters as Micrometer meters, summed over this instance's tasks at scrape
 * time (tasks come and go with rebalances; the Kafka metrics binder only sees metrics present
 * when it binds).
 */
public final class JoltMeters {
    private JoltMeters() {}

    static void bind(MeterRegistry registry, KafkaStreams streams) {
        counter(registry, streams, "jolt.entries.verified", ProcessorMetrics.VERIFIED, null, "entries whose signature was verified");
        counter(registry, streams, "jolt.hot.path", ProcessorMetrics.HOT_PATH, null, "entries merged incrementally");
        counter(registry, streams, "jolt.reevaluations", ProcessorMetrics.REEVALUATIONS, null, "identity re-evaluations");
        counter(registry, streams, "jolt.conflict.events", ProcessorMetrics.CONFLICTS, null, "events written to jolt.conflicts.v2");
        counter(registry, streams, "jolt.entries.duplicate", ProcessorMetrics.DUPLICATES, null, "entries received again, identical to one stored");
        for (RejectionKind kind : RejectionKind.values()) {
            counter(registry, streams, "jolt.rejected", ProcessorMetrics.REJECTED, kind.name().toLowerCase(Locale.ROOT), "records written to jolt.rejected.v2");
        }
        for (CompactionCause cause : CompactionCause.values()) {
            counter(registry, streams, "jolt.compacted", ProcessorMetrics.COMPACTED, cause.name().toLowerCase(Locale.ROOT),
                    "entries the live side forgot, reported on jolt.compactions.v2");
        }
    }

    /** Which signature verifier this process uses: {@code jolt_verifier_info{impl="native-first"} 1}. */
    static void bindVerifier(MeterRegistry registry, SignatureCheck signatures) {
        Gauge.builder("jolt.verifier.info", () -> 1).description("the signature verifier this process uses (PROTOCOL §2's rule either way)")
                .tag("impl", signatures.verifier().name()).register(registry);
    }

    private static void counter(MeterRegistry registry, KafkaStreams streams, String meter, String metric, String reason, String description) {
        FunctionCounter.Builder<KafkaStreams> builder = FunctionCounter.builder(meter, streams, s -> sum(s, metric, reason)).description(description);
        if (reason != null) {
            builder.tag("reason", reason);
        }
        builder.register(registry);
    }

    static double sum(KafkaStreams streams, String name, String reason) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> m : streams.metrics().entrySet()) {
            MetricName n = m.getKey();
            if (n.group().equals(ProcessorMetrics.GROUP) && n.name().equals(name) && (reason == null || reason.equals(n.tags().get("reason")))) {
                total += ((Number) m.getValue().metricValue()).doubleValue();
            }
        }
        return total;
    }
}
