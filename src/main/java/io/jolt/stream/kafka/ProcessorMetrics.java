package io.jolt.stream.kafka;

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
final class ProcessorMetrics {
    static final String GROUP = "jolt-processor";

    final Sensor verified;
    final Sensor hotPath;
    final Sensor reevaluations;
    final Sensor rejected;
    private final StreamsMetrics metrics;

    ProcessorMetrics(StreamsMetrics metrics, TaskId task) {
        this.metrics = metrics;
        verified = counter("entries-verified-total", "entries whose signature was verified", task);
        hotPath = counter("hot-path-total", "entries merged incrementally on the hot path", task);
        reevaluations = counter("reevaluations-total", "identity re-evaluations from stored records", task);
        rejected = counter("rejected-total", "records reported on jolt.rejected.v1", task);
    }

    private Sensor counter(String name, String description, TaskId task) {
        Sensor sensor = metrics.addSensor("jolt." + name + "." + task, Sensor.RecordingLevel.INFO);
        sensor.add(new MetricName(name, GROUP, description, Map.of("task-id", task.toString())), new CumulativeCount());
        return sensor;
    }

    void close() {
        metrics.removeSensor(verified);
        metrics.removeSensor(hotPath);
        metrics.removeSensor(reevaluations);
        metrics.removeSensor(rejected);
    }
}
