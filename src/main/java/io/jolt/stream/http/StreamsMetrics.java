package io.jolt.stream.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The Prometheus registry both services serve at {@code /metrics}, with Kafka Streams' own metrics
 * (and its clients') bridged into it, and the JVM's memory, threads and CPU, named as Prometheus wants: {@code promtool check metrics}
 * finds nothing to complain about.
 */
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
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        return registry;
    }

    /** The registry, its filters set before any meter is registered (a filter does not reach back). */
    static PrometheusMeterRegistry registry() {
        PrometheusNames names = new PrometheusNames();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT) {
            @Override
            protected <T> FunctionCounter newFunctionCounter(Meter.Id id, T obj, ToDoubleFunction<T> count) {
                double scale = names.scale(id);
                return super.newFunctionCounter(id, obj, scale == 1 ? count : o -> count.applyAsDouble(o) * scale);
            }

            @Override
            protected <T> Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> value) {
                double scale = names.scale(id);
                return super.newGauge(id, obj, scale == 1 ? value : o -> value.applyAsDouble(o) * scale);
            }
        };
        registry.config()
                .meterFilter(MeterFilter.renameTag("kafka.stream.state", "rocksdb.window.state.id", STORE_ID))
                .meterFilter(MeterFilter.renameTag("kafka.stream.state", "rocksdb.session.state.id", STORE_ID))
                .meterFilter(names);
        return registry;
    }

    /**
     * Kafka's clients name some metrics with abbreviated units ({@code io-time-ns-total},
     * {@code start-time-ms}), call a gauge {@code connection-count} (as Micrometer's own binders do
     * {@code process.cpu.time} in ns and {@code system.cpu.count}), and describe some not at all:
     * Prometheus wants seconds, keeps {@code _count} for histograms and summaries, and a help text.
     * A filter can rename but not rescale, so it remembers what it renamed from nanoseconds or
     * milliseconds and the registry scales those values to seconds as it creates their meters.
     */
    static final class PrometheusNames implements MeterFilter {
        private static final Pattern UNIT = Pattern.compile("\\.(ns|ms)(\\.|$)");
        private final Map<String, Double> scaledToSeconds = new ConcurrentHashMap<>();

        @Override
        public Meter.Id map(Meter.Id id) {
            if (id.getName().startsWith("jolt.")) {
                return id; // ours, named by these rules from the start
            }
            Matcher unit = UNIT.matcher(id.getName());
            String name = unit.find() ? unit.replaceFirst(".seconds$2") : id.getName();
            if (!name.equals(id.getName())) {
                scaledToSeconds.put(name, unit.group(1).equals("ns") ? 1e-9 : 1e-3);
            }
            String baseUnit = id.getBaseUnit();
            if ("ns".equals(baseUnit) || "nanoseconds".equals(baseUnit)) { // the exposition appends the base unit to the name
                baseUnit = "seconds";
                scaledToSeconds.put(name, 1e-9);
            }
            if (id.getType() == Meter.Type.GAUGE && name.endsWith(".count")) {
                name = name.substring(0, name.length() - ".count".length()) + "s"; // connection.count -> connections
            }
            String description = id.getDescription() == null || id.getDescription().isBlank()
                    ? "Kafka client metric " + id.getName() + " (Kafka gives it no description)" : id.getDescription();
            return name.equals(id.getName()) && description.equals(id.getDescription()) && Objects.equals(baseUnit, id.getBaseUnit()) ? id
                    : new Meter.Id(name, Tags.of(id.getTags()), baseUnit, description, id.getType());
        }

        double scale(Meter.Id id) {
            return scaledToSeconds.getOrDefault(id.getName(), 1.0);
        }
    }
}
