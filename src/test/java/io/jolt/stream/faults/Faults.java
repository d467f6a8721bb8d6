package io.jolt.stream.faults;

import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicReader;
import java.time.Duration;

/** Timing a fault: strike while the service is mid-stream, so that records are in flight. */
final class Faults {
    private Faults() {}

    /**
     * Waits until the application has committed a third of what it had not committed at
     * {@code before}, and returns how many records were then produced but not yet committed
     * (in flight).
     */
    static long awaitMidStream(String bootstrap, String applicationId, long before, long total, Duration timeout) throws Exception {
        long target = before + Math.max(1, (total - before) / 3);
        try (TopicReader reader = new TopicReader(bootstrap)) {
            TopicReader.Progress p = Waiting.await("progress beyond " + before + " to " + target).atMost(timeout).pollInterval(Duration.ofMillis(50))
                    .until(() -> reader.progress(applicationId), now -> now.processed() >= target);
            return p.total() - p.processed();
        }
    }

    static TopicReader.Progress progress(String bootstrap, String applicationId) throws Exception {
        try (TopicReader reader = new TopicReader(bootstrap)) {
            return reader.progress(applicationId);
        }
    }
}
