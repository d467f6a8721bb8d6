package io.jolt.stream.processor;

import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Tally;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * The analytics' combiner before their repartition: facts of the same ten seconds (of the
 * record's timestamp) and fact key are summed here and go to {@code analytics-facts} as one
 * record, with the greatest timestamp of the facts it sums, once per commit interval (a
 * wall-clock punctuation). A conflict makes about six facts and most of them repeat within
 * seconds (its kind, prefix, identity, devices), so the repartition carries one record per
 * distinct (ten seconds, fact key) and interval instead of one per fact.
 *
 * <p><b>Why the counts do not change.</b> {@link Tally#plus} is associative and commutative, and a
 * ten-second bucket lies inside exactly one epoch-aligned 10 s, 1 m and 1 h window, so a sum sent
 * with the greatest timestamp of its bucket lands in the windows each of its facts would have.
 *
 * <p><b>Why it is exactly once.</b> The sums are kept in a logged store ({@link #STORE}), so the
 * facts folded, the records forwarded, the store's changelog and the input offsets all commit in
 * one transaction: after a crash the store is restored to the last commit and the inputs after it
 * are read again, and after a rebalance the new owner restores the store and forwards what is left.
 * The store is cached, so a sum rewritten many times within a commit is one changelog record (and
 * its deletion at the punctuation one more, or the only one when both fall in one commit) as long
 * as the record cache has room for it. That cache is the stream thread's, shared by all its stores
 * ({@code statestore.cache.max.bytes}: 64 MiB by the service's default, 10 MiB by Streams'), and a
 * put into a full one evicts, and so writes, this store's own least recent sums: {@code ./jolt
 * bench} measured this changelog at 0.63 records per entry with Streams' 10 MiB and 0.19 with
 * 256 MiB (the repartition at 0.13 with either, from 0.94 unfolded).
 *
 * <p><b>Late records.</b> A windowed count drops a record once its window's end plus grace is at
 * or before the stream time its task has seen. The fold must not change which records that drops.
 * Among the facts pending here none closes another's window: the 10 s window, the first of a
 * bucket's windows to close (1 m and 1 h end no earlier and have longer grace), closes at bucket
 * start + 10 s + 1 min, so when a fact arrives that would close a pending bucket's window, or that
 * a pending fact's timestamp has already closed it for, everything pending is forwarded first. So
 * each sum meets downstream the stream time its facts would have met, as far as this task's own
 * facts decide it: the one difference left is time. A fact reaches the counts up to one interval
 * (500 ms by default) of wall clock later, and in the meantime other tasks' facts may raise the
 * counting task's stream time: a fact whose window closes within that delay (already about a
 * minute late for its ten seconds, ten for its minute) may be dropped where it was counted, or the
 * other way round. Which one it was already depended on how the tasks' records interleave.
 */
final class FactFold implements Processor<String, Tally, String, Tally> {
    static final String NAME = "analytics-fold";
    static final String STORE = "analytics-fold";
    /** Facts are folded per ten seconds of their timestamp: the smallest window, so every window holds whole buckets. */
    static final long BUCKET_MS = AnalyticsWindow.TEN_SECONDS.size().toMillis();
    /** Stream time at which a bucket's first window to close (its ten seconds) is closed: start + this. */
    static final long CLOSED_AFTER_MS = BUCKET_MS + AnalyticsWindow.TEN_SECONDS.grace().toMillis();
    /** The project's commit interval (JoltConfig), when the Streams configuration does not say. */
    static final long DEFAULT_INTERVAL_MS = 500;

    private ProcessorContext<String, Tally> context;
    private TimestampedKeyValueStore<String, Tally> store;
    /** The smallest bucket start and greatest timestamp pending in the store; MAX and MIN when nothing is. */
    private long firstBucket = Long.MAX_VALUE;
    private long lastTimestamp = Long.MIN_VALUE;

    /**
     * In memory, logged and cached. The changelog is almost all deletions, compacted away: a
     * segment an hour (not a week), so that a restore reads little more than the last day's.
     */
    static StoreBuilder<TimestampedKeyValueStore<String, Tally>> store() {
        return Stores.timestampedKeyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(), ConflictAnalytics.TALLY)
                .withCachingEnabled()
                .withLoggingEnabled(Map.of(TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Duration.ofHours(1).toMillis())));
    }

    @Override
    public void init(ProcessorContext<String, Tally> context) {
        this.context = context;
        this.store = context.getStateStore(STORE);
        // What a crash or a rebalance left pending (restored from the changelog) is forwarded by the first punctuation.
        try (KeyValueIterator<String, ValueAndTimestamp<Tally>> pending = store.all()) {
            pending.forEachRemaining(kv -> noteBounds(bucketOf(kv.key), kv.value.timestamp()));
        }
        context.schedule(Duration.ofMillis(interval(context.appConfigs())), PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    /** commit.interval.ms: a sum waits no longer than a commit would make it wait anyway. */
    static long interval(Map<String, Object> appConfigs) {
        Object configured = appConfigs.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG);
        return configured == null ? DEFAULT_INTERVAL_MS : Math.max(1, Long.parseLong(configured.toString()));
    }

    @Override
    public void process(Record<String, Tally> fact) {
        if (fact.key() == null || fact.value() == null) {
            context.forward(fact); // never made by Facts; left to the repartition and the counts to drop, as before
            return;
        }
        long timestamp = fact.timestamp();
        long bucket = Math.floorDiv(timestamp, BUCKET_MS) * BUCKET_MS;
        if (isPending() && (firstBucket + CLOSED_AFTER_MS <= timestamp || bucket + CLOSED_AFTER_MS <= lastTimestamp)) {
            flush(); // it closes a pending bucket's window, or one pending closes its: keep the order in which they meet stream time
        }
        String key = bucket + "|" + fact.key();
        ValueAndTimestamp<Tally> folded = store.get(key);
        store.put(key, folded == null ? ValueAndTimestamp.make(fact.value(), timestamp)
                : ValueAndTimestamp.make(folded.value().plus(fact.value()), Math.max(folded.timestamp(), timestamp)));
        noteBounds(bucket, timestamp);
    }

    /** Forwards every pending sum, keyed by its fact key and stamped with the greatest timestamp of its facts, and forgets it. */
    private void flush() {
        if (!isPending()) {
            return;
        }
        List<KeyValue<String, ValueAndTimestamp<Tally>>> pending = new ArrayList<>();
        try (KeyValueIterator<String, ValueAndTimestamp<Tally>> all = store.all()) {
            all.forEachRemaining(pending::add);
        }
        for (KeyValue<String, ValueAndTimestamp<Tally>> sum : pending) {
            context.forward(new Record<>(sum.key.substring(sum.key.indexOf('|') + 1), sum.value.value(), sum.value.timestamp()));
            store.delete(sum.key);
        }
        firstBucket = Long.MAX_VALUE;
        lastTimestamp = Long.MIN_VALUE;
    }

    private boolean isPending() {
        return firstBucket != Long.MAX_VALUE;
    }

    private void noteBounds(long bucket, long timestamp) {
        firstBucket = Math.min(firstBucket, bucket);
        lastTimestamp = Math.max(lastTimestamp, timestamp);
    }

    private static long bucketOf(String key) {
        return Long.parseLong(key.substring(0, key.indexOf('|')));
    }
}
