package io.jolt.stream.processor;

import io.jolt.stream.avro.RejectionKind;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.TaskId;

/**
 * Counters of one task's identity processor, registered with Kafka Streams' own metrics (group
 * {@code jolt-processor}, tag {@code task-id}), so they appear wherever Streams metrics go.
 */
public final class ProcessorMetrics {
    public static final String GROUP = "jolt-processor";

    /** The counters, by metric name (all cumulative, summed over tasks by readers). */
    public static final String VERIFIED = "entries-verified-total";
    public static final String HOT_PATH = "hot-path-total";
    public static final String REEVALUATIONS = "reevaluations-total";
    public static final String REJECTED = "rejected-total";
    public static final String CONFLICTS = "conflict-events-total";
    public static final String COMPACTED = "compacted-total";
    public static final String DUPLICATES = "entries-duplicate-total";

    final Sensor verified;
    final Sensor hotPath;
    final Sensor reevaluations;
    final Sensor conflicts;
    final Sensor duplicates;
    private final Map<RejectionKind, Sensor> rejected = new EnumMap<>(RejectionKind.class);
    private final Map<ArchiveOperation.Cause, Sensor> compacted = new EnumMap<>(ArchiveOperation.Cause.class);
    private final StreamsMetrics metrics;
    private final TaskId task;

    ProcessorMetrics(StreamsMetrics metrics, TaskId task) {
        this.metrics = metrics;
        this.task = task;
        verified = counter(VERIFIED, "entries whose signature was verified", Map.of());
        hotPath = counter(HOT_PATH, "entries merged incrementally on the hot path", Map.of());
        reevaluations = counter(REEVALUATIONS, "identity re-evaluations from stored records", Map.of());
        conflicts = counter(CONFLICTS, "events written to jolt.conflicts.v2", Map.of());
        duplicates = counter(DUPLICATES, "entries received again, identical to one stored (at-least-once writers): changed nothing", Map.of());
        for (RejectionKind kind : RejectionKind.values()) {
            rejected.put(kind, counter(REJECTED, "records reported on jolt.rejected.v2", Map.of("reason", kind.name().toLowerCase(java.util.Locale.ROOT))));
        }
        for (ArchiveOperation.Cause cause : ArchiveOperation.Cause.values()) {
            compacted.put(cause, counter(COMPACTED, "entries the live side forgot, reported on jolt.compactions.v2",
                    Map.of("reason", cause.name().toLowerCase(java.util.Locale.ROOT))));
        }
    }

    void compacted(ArchiveOperation.Cause cause) {
        compacted.get(cause).record();
    }

    void rejected(RejectionKind kind) {
        rejected.get(kind).record();
    }

    private Sensor counter(String name, String description, Map<String, String> tags) {
        Map<String, String> allTags = new java.util.HashMap<>(tags);
        allTags.put("task-id", task.toString());
        Sensor sensor = metrics.addSensor("jolt." + name + allTags, Sensor.RecordingLevel.INFO);
        sensor.add(new MetricName(name, GROUP, description, allTags), new CumulativeCount());
        return sensor;
    }

    void close() {
        metrics.removeSensor(verified);
        metrics.removeSensor(hotPath);
        metrics.removeSensor(reevaluations);
        metrics.removeSensor(conflicts);
        metrics.removeSensor(duplicates);
        rejected.values().forEach(metrics::removeSensor);
        compacted.values().forEach(metrics::removeSensor);
    }
}
