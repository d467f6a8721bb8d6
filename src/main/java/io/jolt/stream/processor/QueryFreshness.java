package io.jolt.stream.processor;

import io.jolt.stream.wire.Topics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.TaskMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded staleness for interactive queries. Kafka Streams serves a store for as long as its
 * instance runs: cut off from the brokers, or woken from a long pause still believing it owns its
 * partitions, an instance answers from stores others have long moved past, and nothing in the
 * answer says so. This says how old an answer may be, from what the instance can show.
 *
 * <p>Every {@code interval} it notes the time, asks the brokers for the end offsets (read_committed)
 * of the input partitions its active tasks hold, and then reads what those tasks have committed
 * ({@link FreshnessLedger}): a partition is current as of the latest time whose end offsets its
 * commits reach. A cut-off instance gets no new end offsets, so its freshness stops while the
 * clock runs on; answers older than the bound are refused by the API. Reads see what a task has
 * processed, committed or not, so an answer is at least as current as this says. A partition its
 * task has not committed since it was assigned counts from where the task resumed
 * ({@link ResumePoints}), never from the group's commit as it is now: after a cut, that may be
 * another instance's.
 */
public final class QueryFreshness implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryFreshness.class);
    private static final List<String> INPUTS = List.of(Topics.AUTHORITY, Topics.ENTRIES);

    private final KafkaStreams streams;
    private final Group group;
    private final Admin admin;
    private final Duration bound;
    private final Clock clock;
    private final FreshnessLedger ledger = new FreshnessLedger(INPUTS);
    private final ResumePoints resumes;
    private final ScheduledExecutorService poller;
    private final ScheduledExecutorService looker;
    private volatile boolean lost;
    private Future<?> askingAgain;

    /**
     * The consumer group whose commits a task resumes from: its name (the application id), its
     * session timeout, and a time (ms) before which it assigned nothing to this instance.
     */
    public record Group(String applicationId, Duration sessionTimeout, long notAssignedBefore) {}

    private QueryFreshness(KafkaStreams streams, Group group, Admin admin, Duration bound, Clock clock) {
        this.streams = streams;
        this.group = group;
        this.admin = admin;
        this.bound = bound;
        this.clock = clock;
        this.resumes = new ResumePoints(group.sessionTimeout().toMillis(), group.notAssignedBefore());
        this.poller = daemon("jolt-query-freshness");
        this.looker = daemon("jolt-query-freshness-tasks");
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts asking, every tenth of the bound (at least every second, at most every 100 ms), with
     * an admin client of {@code adminProperties} whose every call gives up within the bound; and
     * looks at the tasks held here every 100 ms, whether the brokers answer or not, to know when
     * each was assigned.
     */
    public static QueryFreshness start(KafkaStreams streams, Group group, Properties adminProperties, Duration bound) {
        Properties p = new Properties();
        p.putAll(adminProperties);
        int timeout = (int) Math.min(bound.toMillis(), 10_000);
        p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        p.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, "jolt-query-freshness");
        QueryFreshness freshness = new QueryFreshness(streams, group, Admin.create(p), bound, Clock.systemUTC());
        freshness.looker.scheduleWithFixedDelay(freshness::lookAtTasks, 0, 100, TimeUnit.MILLISECONDS);
        long every = Math.max(100, Math.min(1000, bound.toMillis() / 10));
        freshness.poller.scheduleWithFixedDelay(freshness::poll, 0, every, TimeUnit.MILLISECONDS);
        return freshness;
    }

    private void lookAtTasks() {
        try {
            resumes.look(now(), committedByActiveTasks());
        } catch (RuntimeException e) {
            // Kafka Streams closing: nothing is served any more.
        }
    }

    /** The staleness bound: an answer older than this is refused. */
    public Duration bound() {
        return bound;
    }

    /** Milliseconds since the epoch, by the clock freshness is measured with. */
    public long now() {
        return clock.millis();
    }

    /**
     * The partition's freshness when this instance holds it and can show it is within the bound;
     * empty otherwise. When what it knows is not enough (a task just assigned, or the last poll
     * too old) it asks once more, waiting at most {@link #ASK_AGAIN_WITHIN}: a cut-off instance
     * still refuses in time.
     */
    public Optional<Freshness> within(int partition) {
        Optional<Freshness> known = current(partition);
        if (known.isPresent()) {
            return known;
        }
        try {
            askAgain().get(ASK_AGAIN_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            // Not known in time: refused as stale.
        }
        return current(partition);
    }

    /** How long a question may wait for the brokers when what this instance knows does not show it is current. */
    public static final Duration ASK_AGAIN_WITHIN = Duration.ofSeconds(1);

    /**
     * One poll for every question that finds too little, not one each: behind brokers that do
     * not answer, a poll takes up to the bound, and a queue of them would only grow.
     */
    private synchronized Future<?> askAgain() {
        if (askingAgain == null || askingAgain.isDone()) {
            askingAgain = poller.submit(this::poll);
        }
        return askingAgain;
    }

    private Optional<Freshness> current(int partition) {
        long now = now();
        return ledger.of(partition).filter(f -> f.ageMillis(now) <= bound.toMillis());
    }

    /** The partition's freshness, however old, or empty when this instance holds no task of it that has reached any end offsets. */
    public Optional<Freshness> of(int partition) {
        return ledger.of(partition);
    }

    /** {@code jolt_query_staleness_seconds}: the age of the oldest partition this instance holds. */
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("jolt.query.staleness", this, QueryFreshness::oldestAgeSeconds).baseUnit("seconds")
                .description("Age of this instance's least current partition: answers older than jolt.query.max.staleness.ms are refused (503 stale)")
                .register(registry);
    }

    private double oldestAgeSeconds() {
        long now = now();
        return ledger.partitions().stream().map(ledger::of).flatMap(Optional::stream).mapToLong(f -> f.ageMillis(now)).max().orElse(0) / 1000.0;
    }

    private void poll() {
        try {
            Set<TopicPartition> held = committedByActiveTasks().keySet().stream().filter(tp -> INPUTS.contains(tp.topic()))
                    .collect(Collectors.toSet());
            if (!held.isEmpty()) {
                long askedAt = now();
                ledger.ends(askedAt, endOffsets(held));
            }
            // Read after the end offsets: commits that reach them were made after they were asked.
            Map<TopicPartition, Long> committed = committedByActiveTasks();
            resumes.look(now(), committed);
            readResumePoints();
            ledger.commits(resumes.positions(committed));
            ledger.forgetBefore(now() - bound.toMillis());
            if (lost) {
                LOG.info("brokers answer again: query answers are current once this instance's tasks reach their end offsets");
                lost = false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!lost) {
                LOG.warn("cannot ask the brokers for the inputs' end offsets ({}): query answers here turn 503 stale once {} ms old",
                        e.getMessage(), bound.toMillis());
                lost = true;
            }
        }
    }

    private Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(bound.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /** What this instance's active tasks have committed, by input partition: -1 where a task has not committed since it was assigned. */
    private Map<TopicPartition, Long> committedByActiveTasks() {
        Map<TopicPartition, Long> committed = new HashMap<>();
        streams.metadataForLocalThreads().forEach(thread -> thread.activeTasks().stream().map(TaskMetadata::committedOffsets)
                .forEach(committed::putAll));
        return committed;
    }

    /** The group's commits, for the tasks that have not committed since they were assigned here ({@link ResumePoints}). */
    private void readResumePoints() throws Exception {
        if (resumes.awaiting().isEmpty()) {
            return;
        }
        var commits = admin.listConsumerGroupOffsets(group.applicationId()).partitionsToOffsetAndMetadata()
                .get(bound.toMillis(), TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        commits.forEach((tp, committed) -> {
            if (committed != null) {
                offsets.put(tp, committed.offset());
            }
        });
        resumes.groupCommits(now(), offsets);
    }

    @Override
    public void close() {
        looker.shutdownNow();
        poller.shutdownNow();
        admin.close(Duration.ofSeconds(5));
    }
}
