package io.jolt.stream.processor;

import static io.jolt.stream.processor.ConflictAnalyticsTest.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Tally;
import io.jolt.stream.avro.ConflictAggregate;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The fold before the analytics' repartition: facts of one ten seconds and key within one commit
 * interval leave as one record with their sum and greatest timestamp; the counts end as they would
 * unfolded. Wall clock is driven by hand ({@code advanceWallClockTime}), stream time by the facts.
 */
class FactFoldTest {
    static final long INTERVAL = 500;
    static final String KIND = "kind/CONCURRENT_HEADS";
    static final String ALICE = "identity/alice";

    @Test
    void factsOfOneBucketWithinOneIntervalLeaveAsOneRecordWithTheirSumAndLatestTime() {
        try (Fold fold = new Fold(INTERVAL)) {
            fold.given(T0 + 1_000, KIND, Tally.one(false));
            fold.given(T0 + 9_000, KIND, Tally.one(true));
            fold.given(T0 + 5_000, KIND, Tally.one(false));
            fold.given(T0 + 2_000, ALICE, Tally.one(false));
            assertThat(fold.out.isEmpty()).as("nothing before the interval has passed").isTrue();

            fold.driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));

            assertThat(fold.forwarded()).containsExactlyInAnyOrder(
                    new TestRecord<>(KIND, new Tally(3, 1), Instant.ofEpochMilli(T0 + 9_000)),
                    new TestRecord<>(ALICE, new Tally(1, 0), Instant.ofEpochMilli(T0 + 2_000)));
        }
    }

    @Test
    void factsOfTwoBucketsStayApart() {
        try (Fold fold = new Fold(INTERVAL)) {
            fold.given(T0 + 9_999, KIND, Tally.one(false));
            fold.given(T0 + 10_000, KIND, Tally.one(false));
            fold.given(T0 + 19_999, KIND, Tally.one(false));

            fold.driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));

            assertThat(fold.forwarded()).containsExactlyInAnyOrder(
                    new TestRecord<>(KIND, new Tally(1, 0), Instant.ofEpochMilli(T0 + 9_999)),
                    new TestRecord<>(KIND, new Tally(2, 0), Instant.ofEpochMilli(T0 + 19_999)));
        }
    }

    @Test
    void afterThePunctuationTheStoreIsEmptyAndTheNextIntervalStartsAfresh() {
        try (Fold fold = new Fold(INTERVAL)) {
            fold.given(T0, KIND, Tally.one(false));
            fold.given(T0, ALICE, Tally.one(false));
            assertThat(fold.stored()).containsOnlyKeys(T0 + "|" + KIND, T0 + "|" + ALICE);

            fold.driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));
            assertThat(fold.stored()).isEmpty();
            assertThat(fold.forwarded()).hasSize(2);

            fold.given(T0 + 1, KIND, Tally.one(false));
            fold.driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));
            assertThat(fold.forwarded()).containsExactly(new TestRecord<>(KIND, new Tally(1, 0), Instant.ofEpochMilli(T0 + 1)));
            assertThat(fold.stored()).isEmpty();
        }
    }

    @Test
    void theIntervalIsTheCommitInterval() {
        try (Fold fold = new Fold(2_000)) {
            fold.given(T0, KIND, Tally.one(false));
            fold.driver.advanceWallClockTime(Duration.ofMillis(1_000));
            assertThat(fold.out.isEmpty()).isTrue();
            fold.driver.advanceWallClockTime(Duration.ofMillis(1_000));
            assertThat(fold.forwarded()).hasSize(1);
        }
        assertThat(FactFold.interval(Map.of())).isEqualTo(FactFold.DEFAULT_INTERVAL_MS);
        assertThat(FactFold.interval(Map.of(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "250"))).isEqualTo(250);
    }

    /** A fact that closes a pending bucket's ten seconds (start + 10 s + 1 min of grace) must meet stream time after it, not with it. */
    @Test
    void aFactThatWouldCloseAPendingBucketsWindowSendsWhatIsPendingFirst() {
        try (Fold fold = new Fold(INTERVAL)) {
            fold.given(T0 + 1_000, KIND, Tally.one(false));
            fold.given(T0 + 69_999, KIND, Tally.one(false)); // its ten seconds close at T0 + 70 s: still open
            assertThat(fold.out.isEmpty()).isTrue();

            fold.given(T0 + 70_000, KIND, Tally.one(false)); // closes T0's ten seconds
            assertThat(fold.forwarded()).containsExactlyInAnyOrder(new TestRecord<>(KIND, new Tally(1, 0), Instant.ofEpochMilli(T0 + 1_000)),
                    new TestRecord<>(KIND, new Tally(1, 0), Instant.ofEpochMilli(T0 + 69_999)));
            assertThat(fold.stored()).containsOnlyKeys((T0 + 70_000) + "|" + KIND);

            fold.given(T0 + 5_000, KIND, Tally.one(true)); // closed by what is pending: goes after it
            assertThat(fold.forwarded()).containsExactly(new TestRecord<>(KIND, new Tally(1, 0), Instant.ofEpochMilli(T0 + 70_000)));
            fold.driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));
            assertThat(fold.forwarded()).containsExactly(new TestRecord<>(KIND, new Tally(1, 1), Instant.ofEpochMilli(T0 + 5_000)));
        }
    }

    /**
     * Conflicts one in ten of which is late by up to 20 minutes (past the ten seconds' and the
     * minute's grace), run through the whole topology twice: once with a punctuation after every
     * record (each record's facts alone: the unfolded stream) and once with one only every 40
     * records. Every count in every store and every last count on jolt.analytics.v1 is the same.
     */
    @Test
    void theCountsEqualTheUnfoldedOnesWhateverTheOrderAndLateness() {
        List<Input> inputs = inputs(new Random(31), 600, 4_000, 10);
        Outcome unfolded = run(inputs, 1);
        Outcome folded = run(inputs, 40);

        assertThat(folded.counts).isEqualTo(unfolded.counts);
        assertThat(folded.published).isEqualTo(unfolded.published);
        assertThat(unfolded.counted(AnalyticsWindow.TEN_SECONDS)).as("some facts are too late for their ten seconds").isLessThan(unfolded.totalEvents());
        assertThat(unfolded.counted(AnalyticsWindow.MINUTE)).as("some facts are too late for their minute").isLessThan(unfolded.totalEvents());
        assertThat(folded.repartitioned).isLessThan(unfolded.repartitioned);
    }

    /** As it runs: conflicts a few hundred milliseconds apart, one in a hundred late. Under half the records are repartitioned, the counts the same. */
    @Test
    void aSteadyStreamRepartitionsUnderHalfTheRecordsForTheSameCounts() {
        List<Input> inputs = inputs(new Random(4), 600, 300, 100);
        Outcome unfolded = run(inputs, 1);
        Outcome folded = run(inputs, 40);

        assertThat(folded.counts).isEqualTo(unfolded.counts);
        assertThat(folded.published).isEqualTo(unfolded.published);
        assertThat(folded.repartitioned).isLessThan(unfolded.repartitioned / 2);
    }

    /** A record for the analytics: a conflict or a rejection, at a time. */
    private record Input(String topic, String key, long timestamp, SpecificRecord value) {}

    /** Every store's counts by key (windowed keys as key@start), the last count of every key on jolt.analytics.v1, and the repartition's records. */
    private record Outcome(Map<String, Map<String, Tally>> counts, Map<String, ConflictAggregate> published, long repartitioned) {
        long counted(AnalyticsWindow window) {
            return counts.get(window.storeName()).values().stream().mapToLong(Tally::events).sum();
        }

        long totalEvents() {
            return counted(AnalyticsWindow.TOTAL);
        }
    }

    /** {@code count} records, each up to {@code apartMs} after the last, one in {@code lateOneIn} up to 20 minutes earlier instead. */
    private static List<Input> inputs(Random random, int count, int apartMs, int lateOneIn) {
        List<Input> inputs = new ArrayList<>();
        long now = T0;
        for (int i = 0; i < count; i++) {
            now += random.nextInt(apartMs);
            long timestamp = random.nextInt(lateOneIn) == 0 ? now - random.nextInt(20 * 60_000) : now;
            String identity = "id" + random.nextInt(6);
            if (random.nextInt(8) == 0) {
                inputs.add(new Input(Topics.REJECTED, identity, timestamp, ConflictAnalyticsTest.rejected(RejectionKind.BAD_SIGNATURE)));
            } else if (random.nextInt(6) == 0) {
                ConflictEvent e = ConflictAnalyticsTest.equivocation(identity, "dev_" + random.nextInt(3));
                inputs.add(new Input(Topics.CONFLICTS, identity, timestamp, e));
            } else {
                ConflictEvent e = ConflictAnalyticsTest.heads(identity, "/p" + random.nextInt(3) + "/x" + random.nextInt(2), random.nextBoolean(),
                        "dev_a", "dev_b");
                inputs.add(new Input(Topics.CONFLICTS, identity, timestamp, e));
            }
            now = Math.max(now, timestamp);
        }
        return inputs;
    }

    /** The whole topology over {@code inputs}, the wall clock advanced by one interval after every {@code every} of them and at the end. */
    private static Outcome run(List<Input> inputs, int every) {
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        Properties props = props("jolt-fold-test", INTERVAL);
        try (TopologyTestDriver driver = new TopologyTestDriver(JoltTopology.build(registry, op -> { }, SignatureCheck.DEFINITION), props)) {
            for (int i = 0; i < inputs.size(); i++) {
                Input in = inputs.get(i);
                driver.createInputTopic(in.topic(), Serdes.String().serializer(), new ConfluentAvroSerde<SpecificRecord>(registry, in.value().getSchema()))
                        .pipeInput(in.key(), in.value(), Instant.ofEpochMilli(in.timestamp()));
                if ((i + 1) % every == 0) {
                    driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));
                }
            }
            driver.advanceWallClockTime(Duration.ofMillis(INTERVAL));
            Map<String, Map<String, Tally>> counts = new TreeMap<>();
            for (AnalyticsWindow window : AnalyticsWindow.values()) {
                Map<String, Tally> byKey = new TreeMap<>();
                if (window.isTimed()) {
                    driver.<String, Tally>getWindowStore(window.storeName()).all()
                            .forEachRemaining(kv -> byKey.put(kv.key.key() + "@" + kv.key.window().start(), kv.value));
                } else {
                    driver.<String, Tally>getKeyValueStore(window.storeName()).all().forEachRemaining(kv -> byKey.put(kv.key, kv.value));
                }
                counts.put(window.storeName(), byKey);
            }
            Map<String, ConflictAggregate> published = new TreeMap<>();
            driver.createOutputTopic(Topics.ANALYTICS, Serdes.String().deserializer(),
                    new ConfluentAvroSerde<ConflictAggregate>(registry, ConflictAggregate.getClassSchema())).readKeyValuesToList()
                    .forEach(kv -> published.put(kv.key, kv.value));
            long repartitioned = driver.createOutputTopic("jolt-fold-test-analytics-facts-repartition", Serdes.String().deserializer(),
                    ConflictAnalytics.TALLY).getQueueSize();
            return new Outcome(counts, published, repartitioned);
        }
    }

    private static Properties props(String applicationId, long interval) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/driver-state");
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(interval));
        props.put("processing.exception.handler.global.enabled", "true");
        return props;
    }

    /** The fold alone: facts in, sums out. */
    private static final class Fold implements AutoCloseable {
        final TopologyTestDriver driver;
        final TestInputTopic<String, Tally> in;
        final TestOutputTopic<String, Tally> out;

        Fold(long interval) {
            StreamsBuilder builder = new StreamsBuilder();
            builder.addStateStore(FactFold.store());
            builder.stream("facts", Consumed.with(Serdes.String(), ConflictAnalytics.TALLY))
                    .process(FactFold::new, Named.as(FactFold.NAME), FactFold.STORE)
                    .to("folded", Produced.with(Serdes.String(), ConflictAnalytics.TALLY));
            driver = new TopologyTestDriver(builder.build(), props("jolt-fold-unit-test", interval));
            in = driver.createInputTopic("facts", Serdes.String().serializer(), ConflictAnalytics.TALLY);
            out = driver.createOutputTopic("folded", Serdes.String().deserializer(), ConflictAnalytics.TALLY);
        }

        void given(long timestamp, String key, Tally tally) {
            in.pipeInput(key, tally, Instant.ofEpochMilli(timestamp));
        }

        List<TestRecord<String, Tally>> forwarded() {
            return out.readRecordsToList().stream().map(r -> new TestRecord<>(r.key(), r.value(), r.getRecordTime())).toList();
        }

        Map<String, Tally> stored() {
            Map<String, Tally> stored = new TreeMap<>();
            try (KeyValueIterator<String, ValueAndTimestamp<Tally>> all = driver.<String, Tally>getTimestampedKeyValueStore(FactFold.STORE).all()) {
                all.forEachRemaining((KeyValue<String, ValueAndTimestamp<Tally>> kv) -> stored.put(kv.key, kv.value.value()));
            }
            return stored;
        }

        @Override
        public void close() {
            driver.close();
        }
    }
}
