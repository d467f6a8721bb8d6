package io.jolt.stream.archive.service;

import static io.jolt.stream.http.StreamsReadiness.counted;

import io.jolt.stream.http.StreamsReadiness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Whether an instance of the archive service should take questions: its index RUNNING, no active
 * task restoring, and the archive partitions this instance indexes at most {@code maxLag}
 * records behind the archive's committed end. Only its own partitions: another instance catching
 * up is that instance's readiness, and should not take this one out of service with it.
 */
final class ArchiveReadiness {
    /** Each admin call of a probe: one that waits longer than an orchestrator's probe timeout has failed anyway. */
    private static final Duration LAG_TIMEOUT = Duration.ofSeconds(2);

    private final KafkaStreams streams;
    private final StreamsReadiness restores;
    private final ArchiveProgress progress;
    private final String topic;
    private final long maxLag;

    /** {@code restores} must be {@code streams}' restore listener. */
    ArchiveReadiness(KafkaStreams streams, StreamsReadiness restores, ArchiveProgress progress, String topic, long maxLag) {
        this.streams = streams;
        this.restores = restores;
        this.progress = progress;
        this.topic = topic;
        this.maxLag = maxLag;
    }

    /** Why an instance whose index is in {@code state} should not take questions yet; empty when it should. */
    List<String> notReadyBecause(KafkaStreams.State state) {
        List<String> reasons = new ArrayList<>(restores.notReadyBecause(state));
        // Before RUNNING this instance's partitions are not settled, and the state already says why.
        if (state == KafkaStreams.State.RUNNING) {
            lagging().ifPresent(reasons::add);
        }
        return reasons;
    }

    private Optional<String> lagging() {
        Set<TopicPartition> indexed = indexedHere();
        try {
            long lag = progress.lag(indexed, LAG_TIMEOUT);
            return lag <= maxLag ? Optional.empty()
                    : Optional.of("the index is " + counted(lag, "record") + " behind the archive on the " + counted(indexed.size(), "partition")
                            + " it indexes here (ready at " + counted(maxLag, "record") + " or fewer)");
        } catch (ExecutionException e) {
            return Optional.of("the index's lag is unknown: " + e.getCause());
        } catch (TimeoutException e) {
            return Optional.of("the index's lag is unknown: the cluster did not answer within " + LAG_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("the index's lag is unknown: interrupted");
        }
    }

    /** The archive partitions this instance's active tasks read. */
    private Set<TopicPartition> indexedHere() {
        return streams.metadataForLocalThreads().stream()
                .flatMap(thread -> thread.activeTasks().stream())
                .flatMap(task -> task.topicPartitions().stream())
                .filter(partition -> partition.topic().equals(topic))
                .collect(Collectors.toSet());
    }
}
