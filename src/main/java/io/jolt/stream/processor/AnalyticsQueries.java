package io.jolt.stream.processor;

import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Dimension;
import io.jolt.stream.analytics.FactKey;
import io.jolt.stream.analytics.Ranked;
import io.jolt.stream.analytics.Series;
import io.jolt.stream.analytics.Tally;
import io.jolt.stream.analytics.TopN;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * Interactive queries over this instance's part of the conflict analytics: counts by a dimension
 * per window, and the top-N values of a dimension over a time range. Each instance counts the
 * values of its partitions; the HTTP layer gathers every instance's part.
 */
public final class AnalyticsQueries {
    /** Where the counts are: Kafka Streams' stores, or a test driver's. */
    public interface CountStores {
        ReadOnlyWindowStore<String, Tally> windows(AnalyticsWindow window);

        ReadOnlyKeyValueStore<String, Tally> totals();
    }

    private final CountStores stores;

    public AnalyticsQueries(CountStores stores) {
        this.stores = stores;
    }

    public static AnalyticsQueries of(KafkaStreams streams) {
        return new AnalyticsQueries(new CountStores() {
            @Override
            public ReadOnlyWindowStore<String, Tally> windows(AnalyticsWindow window) {
                return streams.store(StoreQueryParameters.fromNameAndType(window.storeName(), QueryableStoreTypes.<String, Tally>windowStore()));
            }

            @Override
            public ReadOnlyKeyValueStore<String, Tally> totals() {
                return streams.store(StoreQueryParameters.fromNameAndType(AnalyticsWindow.TOTAL.storeName(),
                        QueryableStoreTypes.<String, Tally>keyValueStore()));
            }
        });
    }

    /** Each value's counts per window with a start in [from, to] (totals: one point at 0), ascending by value. */
    public List<Series> counts(AnalyticsWindow window, Dimension by, long from, long to) {
        Map<String, Map<Long, Tally>> counts = new TreeMap<>();
        scan(window, by, from, to, (value, start, tally) -> counts.computeIfAbsent(value, v -> new TreeMap<>()).put(start, tally));
        return Series.of(counts);
    }

    /** The n values of a dimension with the most events over the windows starting in [from, to] (totals: ever). */
    public List<Ranked> top(AnalyticsWindow window, Dimension what, long from, long to, int n) {
        Map<String, Tally> sums = new HashMap<>();
        scan(window, what, from, to, (value, start, tally) -> sums.merge(value, tally, Tally::plus));
        return TopN.of(sums, n);
    }

    private interface CountVisitor {
        void count(String value, long windowStart, Tally tally);
    }

    private void scan(AnalyticsWindow window, Dimension dimension, long from, long to, CountVisitor visitor) {
        String prefix = dimension.wireName() + "/";
        if (!window.isTimed()) {
            try (KeyValueIterator<String, Tally> it = stores.totals().prefixScan(prefix, Serdes.String().serializer())) {
                it.forEachRemaining(kv -> visitor.count(kv.key.substring(prefix.length()), 0, kv.value));
            }
            return;
        }
        try (KeyValueIterator<Windowed<String>, Tally> it = stores.windows(window).fetchAll(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to))) {
            while (it.hasNext()) {
                KeyValue<Windowed<String>, Tally> kv = it.next();
                if (kv.key.key().startsWith(prefix)) {
                    visitor.count(FactKey.decode(kv.key.key()).value(), kv.key.window().start(), kv.value);
                }
            }
        }
    }
}
