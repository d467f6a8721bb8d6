package io.jolt.stream.connect;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One line a minute of what a task did (pages, entries, rejections, lag): progress an operator can read in the worker's log. */
final class TaskSummary {
    private static final Logger LOG = LoggerFactory.getLogger(JoltSyncSourceTask.class);
    private static final Duration EVERY = Duration.ofMinutes(1);

    private final SyncTaskMetrics metrics;
    private final Duration lagLimit;
    private Instant last;
    private long pages;
    private long entries;

    TaskSummary(SyncTaskMetrics metrics, Instant start, Duration lagLimit) {
        this.metrics = metrics;
        this.lagLimit = lagLimit;
        this.last = start;
    }

    void maybeLog(Instant now, List<Follower> followers) {
        if (Duration.between(last, now).compareTo(EVERY) < 0) {
            return;
        }
        long p = metrics.get(SyncTaskMetrics.PAGES, Map.of());
        long e = metrics.get(SyncTaskMetrics.ENTRIES, Map.of());
        long lagging = followers.stream().filter(f -> f.lagging(now, lagLimit)).count();
        LOG.info("jolt sync task: {} pages, {} entries in the last {} s; {} entries in all; {} of {} pairs lagging; rejections {}",
                p - pages, e - entries, Duration.between(last, now).toSeconds(), e, lagging, followers.size(), metrics.rejectionsByReason());
        pages = p;
        entries = e;
        last = now;
    }
}
