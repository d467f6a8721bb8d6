package io.jolt.stream.processor;

import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Fact;
import io.jolt.stream.analytics.FactKey;
import io.jolt.stream.analytics.Facts;
import io.jolt.stream.analytics.Tally;
import io.jolt.stream.avro.ArchiveLoss;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictAggregate;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.jolt.stream.wire.serde.TallySerde;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conflict analytics, in the Kafka Streams DSL: every record of the conflicts, rejected,
 * archive-losses and compactions topics becomes facts ({@link Facts}), summed per ten seconds and
 * fact key for a commit interval ({@link FactFold}), repartitioned by fact key
 * (so each value is counted by one task, which makes cross-instance top-N exact), and counted
 * per ten seconds, minute, hour and in total in queryable stores; every count's update but the
 * ten seconds' goes to jolt.analytics.v1 for warehouses.
 */
final class ConflictAnalytics {
    private static final Logger LOG = LoggerFactory.getLogger(ConflictAnalytics.class);
    static final TallySerde TALLY = new TallySerde();

    private ConflictAnalytics() {}

    static void addTo(StreamsBuilder builder, SchemaRegistry registry) {
        KStream<String, Tally> facts = facts(builder, registry, Topics.CONFLICTS, ConflictEvent.getClassSchema(), (ConflictEvent e) -> Facts.of(e))
                .merge(facts(builder, registry, Topics.REJECTED, RejectedRecord.getClassSchema(), (RejectedRecord r) -> Facts.of(r)), Named.as("analytics-merge-rejected"))
                .merge(facts(builder, registry, Topics.ARCHIVE_LOSSES, ArchiveLoss.getClassSchema(), (ArchiveLoss l) -> Facts.of(l)), Named.as("analytics-merge-losses"))
                .merge(facts(builder, registry, Topics.COMPACTIONS, Compaction.getClassSchema(), (Compaction c) -> Facts.of(c)), Named.as("analytics-merge-compactions"));
        // Summed per ten seconds and fact key for a commit interval first (FactFold): one repartitioned record per sum, not per fact.
        builder.addStateStore(FactFold.store());
        KGroupedStream<String, Tally> grouped = facts.process(FactFold::new, Named.as(FactFold.NAME), FactFold.STORE).groupByKey(Grouped.with("analytics-facts", Serdes.String(), TALLY));
        ConfluentAvroSerde<ConflictAggregate> aggregates = new ConfluentAvroSerde<>(registry, ConflictAggregate.getClassSchema());
        for (AnalyticsWindow window : List.of(AnalyticsWindow.TEN_SECONDS, AnalyticsWindow.MINUTE, AnalyticsWindow.HOUR)) {
            KTable<Windowed<String>, Tally> counts = grouped.windowedBy(TimeWindows.ofSizeAndGrace(window.size(), window.grace()))
                    .reduce(Tally::plus, Named.as(window.storeName() + "-count"), Materialized.<String, Tally, WindowStore<Bytes, byte[]>>as(window.storeName())
                            .withKeySerde(Serdes.String()).withValueSerde(TALLY).withRetention(window.retention()));
            if (!window.isPublished()) {
                continue;
            }
            counts.toStream(Named.as(window.storeName() + "-updates"))
                    .filter((key, tally) -> tally != null, Named.as(window.storeName() + "-counts"))
                    .map((key, tally) -> aggregate(window, key.window().start(), key.window().end(), key.key(), tally), Named.as(window.storeName() + "-aggregate"))
                    .to(Topics.ANALYTICS, Produced.with(Serdes.String(), aggregates).withName(window.storeName() + "-sink"));
        }
        AnalyticsWindow total = AnalyticsWindow.TOTAL;
        grouped.reduce(Tally::plus, Named.as(total.storeName() + "-count"), Materialized.<String, Tally, KeyValueStore<Bytes, byte[]>>as(total.storeName())
                        .withKeySerde(Serdes.String()).withValueSerde(TALLY))
                .toStream(Named.as(total.storeName() + "-updates"))
                .filter((key, tally) -> tally != null, Named.as(total.storeName() + "-counts"))
                .map((key, tally) -> aggregate(total, 0, 0, key, tally), Named.as(total.storeName() + "-aggregate"))
                .to(Topics.ANALYTICS, Produced.with(Serdes.String(), aggregates).withName(total.storeName() + "-sink"));
    }

    /** A topic's records as facts keyed by {@link FactKey#encode}; a record that does not decode is logged and skipped. */
    private static <V extends SpecificRecord> KStream<String, Tally> facts(StreamsBuilder builder, SchemaRegistry registry, String topic, Schema schema,
            Function<V, List<Fact>> facts) {
        ConfluentAvroSerde<V> serde = new ConfluentAvroSerde<>(registry, schema);
        return builder.stream(topic, Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("analytics-source-" + topic))
                .flatMap((key, bytes) -> facts(topic, serde, bytes, facts), Named.as("analytics-facts-" + topic));
    }

    private static <V extends SpecificRecord> List<KeyValue<String, Tally>> facts(String topic, ConfluentAvroSerde<V> serde, byte[] bytes,
            Function<V, List<Fact>> facts) {
        if (bytes == null) {
            return List.of();
        }
        try {
            return facts.apply(serde.deserialize(topic, bytes)).stream().map(f -> KeyValue.pair(f.key().encode(), f.tally())).toList();
        } catch (SerializationException e) {
            LOG.warn("analytics skipped a record of {} that is not one of its schema: {}", topic, e.getMessage());
            return List.of();
        }
    }

    /** The key (window|window_start|dimension/value) and value of a count on jolt.analytics.v1. */
    private static KeyValue<String, ConflictAggregate> aggregate(AnalyticsWindow window, long start, long end, String factKey, Tally tally) {
        FactKey key = FactKey.decode(factKey);
        return KeyValue.pair(window.wireName() + "|" + start + "|" + factKey, new ConflictAggregate(window.wireName(), Instant.ofEpochMilli(start),
                Instant.ofEpochMilli(end), key.dimension().wireName(), key.value(), tally.events(), tally.clockSensitive()));
    }
}
