package io.jolt.stream.api;

import io.jolt.stream.http.StreamsReadiness;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Whether an instance of the service should take traffic: Kafka Streams RUNNING and none of its
 * active tasks restoring. Made before Kafka Streams, because the restore listener can only be
 * registered before the start; {@code GET /health/ready} and whoever waits for the instance
 * (the demo) ask the same. It wraps {@code http.StreamsReadiness} so that {@code service} reaches
 * it through {@code api}, the one layer below it that may use {@code http}.
 */
public final class ServiceReadiness {
    private final StreamsReadiness readiness = new StreamsReadiness();

    /** For {@code KafkaStreams.setGlobalStateRestoreListener}, before the start. */
    public StateRestoreListener restoreListener() {
        return readiness;
    }

    /** Restore progress as {@code jolt_restore_remaining}. */
    public void bindTo(MeterRegistry registry) {
        readiness.bindTo(registry);
    }

    /** Why an instance in {@code state} should not take traffic yet; empty when it should. */
    public List<String> notReadyBecause(KafkaStreams.State state) {
        return readiness.notReadyBecause(state);
    }
}
