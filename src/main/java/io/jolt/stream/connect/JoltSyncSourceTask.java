package io.jolt.stream.connect;

import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.CursorSession;
import io.jolt.stream.protocol.sync.SuppliedLog;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.wire.InputEncoder;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.SchemaRegistries;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls its share of (provider, identity) pairs by delta sync, page by page, and returns what the
 * protocol core verified as records for {@code jolt.authority.v2} and {@code jolt.entries.v2}
 * (keyed by identity, our Avro wire format). Each record carries its pair's position as of that
 * record as the source offset, so a restart resumes with a delta from exactly what was delivered.
 * One poll is one transaction where the worker runs exactly-once source support.
 */
public final class JoltSyncSourceTask extends SourceTask {
    private static final Logger LOG = LoggerFactory.getLogger(JoltSyncSourceTask.class);
    private static final Duration IDLE_WAIT_MAX = Duration.ofMillis(500);

    private final Clock clock = Clock.systemUTC();
    private SyncSourceConfig config;
    private List<Follower> followers;
    private ProviderClient client;
    private InputEncoder encoder;
    private SyncTaskMetrics metrics;
    private TaskSummary summary;
    private volatile boolean stopping;

    @Override
    public String version() {
        return JoltSyncSourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new SyncSourceConfig(props);
        List<FollowedPair> pairs = Arrays.stream(config.getString(SyncSourceConfig.TASK_PAIRS).split("\n"))
                .filter(l -> !l.isBlank()).map(FollowedPair::parse).toList();
        try {
            encoder = new InputEncoder(SchemaRegistries.from(props::get).orElseGet(TopicSchemas::seededRegistry));
        } catch (Exception e) {
            throw new ConnectException("the schema registry settings cannot be used: " + e.getMessage(), e);
        }
        SignatureCheck signatures = Verifiers.fastest().check();
        client = new ProviderClient(Duration.ofMillis(config.getLong(SyncSourceConfig.REQUEST_TIMEOUT_MS)), config.authorization());
        Map<Map<String, String>, Map<String, Object>> offsets = context.offsetStorageReader()
                .offsets(pairs.stream().map(FollowedPair::sourcePartition).toList());
        Instant now = clock.instant();
        followers = pairs.stream().map(p -> new Follower(p, PositionOffset.read(offsets.get(p.sourcePartition())), now, signatures)).toList();
        Duration lagLimit = config.pollInterval().multipliedBy(config.getInt(SyncSourceConfig.LAG_POLLS));
        metrics = new SyncTaskMetrics(context.pluginMetrics(), followers::size,
                () -> followers.stream().filter(f -> f.lagging(clock.instant(), lagLimit)).count());
        summary = new TaskSummary(metrics, now, lagLimit);
        long resumed = offsets.values().stream().filter(o -> o != null).count();
        LOG.info("jolt sync task: following {} (provider, identity) pairs, {} resumed from stored cursors", pairs.size(), resumed);
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        List<SourceRecord> out = new ArrayList<>();
        int limit = config.getInt(SyncSourceConfig.MAX_RECORDS);
        List<Follower> byDue = new ArrayList<>(followers);
        byDue.sort(Comparator.comparing(Follower::due));
        for (Follower f : byDue) {
            if (stopping || out.size() >= limit || !f.isDue(clock.instant())) {
                break;
            }
            pull(f, out, limit);
        }
        summary.maybeLog(clock.instant(), followers);
        if (out.isEmpty()) {
            idle();
            return null;
        }
        return out;
    }

    /** Follows one pair's pages until it is caught up, its turn is over, or the poll is full. */
    private void pull(Follower f, List<SourceRecord> out, int limit) throws InterruptedException {
        int maxPages = config.getInt(SyncSourceConfig.MAX_PAGES);
        for (int page = 0; page < maxPages; page++) {
            ProviderClient.Answer answer = client.ask(f.pair.provider(), f.session.nextRequest());
            Instant now = clock.instant();
            if (answer instanceof ProviderClient.Answer.Failed failed) {
                metrics.failed(failed.reason());
                Duration wait = f.failed(now, config.backoff(), failed.retryAfter());
                int failures = f.failures();
                if (failures == 1 || Integer.bitCount(failures) == 1) { // the first, then at 2, 4, 8, ... failures in a row
                    LOG.warn("jolt sync: {} ({} failure(s) in a row, next try in {} ms{})", failed.message(), failures, wait.toMillis(),
                            failed.retryAfter().filter(wait::equals).isPresent() ? ", as its Retry-After asks" : "");
                }
                return;
            }
            if (answer instanceof ProviderClient.Answer.Forgotten forgotten) {
                if (!forgotten(f, forgotten, now)) {
                    return;
                }
                continue;
            }
            ProviderClient.Answer.Page p = (ProviderClient.Answer.Page) answer;
            metrics.page(p.bytes());
            if (!applied(f, f.session.accept(p.response()), out, now) || out.size() >= limit) {
                return;
            }
        }
        f.continueSoon(clock.instant());
    }

    /** Passes a verified page on; true when the pair has more to pull now. */
    private boolean applied(Follower f, CursorSession.Outcome outcome, List<SourceRecord> out, Instant now) {
        if (outcome instanceof CursorSession.Outcome.UnsupportedLevel level) {
            metrics.rejected("unsupported_level");
            LOG.warn("jolt sync: {} needs operation level {}; this connector supports {}: refused, nothing taken",
                    f.pair, level.requiredLevel(), SyncResponder.KNOWN_OPERATION_LEVEL);
            f.refused(now, config.pollInterval());
            return false;
        }
        CursorSession.Outcome.Applied applied = (CursorSession.Outcome.Applied) outcome;
        int authority = 0;
        for (CursorSession.Passed passed : applied.passed()) {
            out.add(record(f.pair, passed));
            authority += passed instanceof CursorSession.Passed.Authority ? 1 : 0;
        }
        metrics.passed(authority, applied.passed().size() - authority);
        for (SuppliedLog.Rejection r : applied.rejected()) {
            metrics.rejected(r.reason().label());
            LOG.warn("jolt sync: rejected the log of device {} supplied for {}, whole: {}", r.deviceId(), f.pair, r);
        }
        if (!applied.more()) {
            f.synced(now, config.pollInterval());
        }
        return applied.more();
    }

    /** A 410 history_forgotten: reported, then asked again from the floor, once. True to ask again now. */
    private boolean forgotten(Follower f, ProviderClient.Answer.Forgotten forgotten, Instant now) {
        metrics.rejected("history_forgotten");
        boolean known = f.session.position().floor(forgotten.deviceId())
                .equals(Optional.of(new Cursor(forgotten.deviceId(), forgotten.floor().sequence(), forgotten.floor().hash())));
        LOG.warn("jolt sync: {} forgot the history of device {} up to sequence {}{}", f.pair, forgotten.deviceId(),
                Long.toUnsignedString(forgotten.floor().sequence()), known ? " even from its floor: retried next interval" : "; pulling from the floor on");
        if (known) {
            f.refused(now, config.pollInterval());
            return false;
        }
        f.session.forgotten(forgotten.deviceId(), forgotten.floor());
        return true;
    }

    private SourceRecord record(FollowedPair pair, CursorSession.Passed passed) {
        ProducerRecord<String, byte[]> r = passed instanceof CursorSession.Passed.Authority a ? encoder.authority(a.record())
                : encoder.entry(((CursorSession.Passed.Entry) passed).entry());
        return new SourceRecord(pair.sourcePartition(), PositionOffset.of(passed.after()), r.topic(), null, Schema.STRING_SCHEMA, r.key(),
                Schema.BYTES_SCHEMA, r.value());
    }

    /** Nothing due: waits for the next pair to fall due (at most half a second, so that stop is prompt). */
    private void idle() throws InterruptedException {
        Instant next = followers.stream().map(Follower::due).min(Comparator.naturalOrder()).orElse(clock.instant().plus(IDLE_WAIT_MAX));
        long wait = Math.min(IDLE_WAIT_MAX.toMillis(), Math.max(0, Duration.between(clock.instant(), next).toMillis()));
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    @Override
    public void stop() {
        stopping = true;
    }
}
