package io.jolt.stream.processor;

import java.math.BigDecimal;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.analytics.AnalyticsWindow;
import io.jolt.stream.analytics.Dimension;
import io.jolt.stream.analytics.Ranked;
import io.jolt.stream.analytics.Series;
import io.jolt.stream.analytics.Tally;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.avro.ConflictAggregate;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictHead;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.Hash32;
import io.jolt.stream.avro.HeadRef;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.RejectionKind;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The conflict aggregates: given conflict events (and rejections, compactions) at chosen times,
 * expect the counts per minute, per hour and in total, the top-N, and the updates on
 * jolt.analytics.v1. Minutes take late events for 10 minutes of stream time, hours for 6 hours.
 */
class ConflictAnalyticsTest {
    static final long T0 = Instant.parse("2026-12-04T10:00:00Z").toEpochMilli();
    static final long MINUTE = 60_000;
    static final long COMMIT_INTERVAL_MS = 500;

    final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
    final TopologyTestDriver driver = driver();
    // Facts reach the counts once the fold's punctuation (every commit interval of wall clock) has forwarded their sums.
    final AnalyticsQueries queries = new AnalyticsQueries(new AnalyticsQueries.CountStores() {
        @Override
        public ReadOnlyWindowStore<String, Tally> windows(AnalyticsWindow window) {
            folded();
            return driver.getWindowStore(window.storeName());
        }

        @Override
        public ReadOnlyKeyValueStore<String, Tally> totals() {
            folded();
            return driver.getKeyValueStore(AnalyticsWindow.TOTAL.storeName());
        }
    });

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void conflictsAreCountedByKindInTheMinuteOfTheirTimestamp() {
        given(T0 + 10_000, heads("alice", "/profile/name", false, "dev_a", "dev_b"));
        given(T0 + 59_999, equivocation("alice", "dev_a"));
        given(T0 + MINUTE, heads("bob", "/profile/name", true, "dev_a", "dev_b"));

        assertThat(points(AnalyticsWindow.MINUTE, Dimension.KIND)).isEqualTo(Map.of(
                "CONCURRENT_HEADS", List.of(new Series.Point(T0, 1, 0), new Series.Point(T0 + MINUTE, 1, 1)),
                "EQUIVOCATION", List.of(new Series.Point(T0, 1, 0))));
        assertThat(points(AnalyticsWindow.HOUR, Dimension.KIND)).isEqualTo(Map.of(
                "CONCURRENT_HEADS", List.of(new Series.Point(T0, 2, 1)), "EQUIVOCATION", List.of(new Series.Point(T0, 1, 0))));
        assertThat(points(AnalyticsWindow.TOTAL, Dimension.KIND)).isEqualTo(Map.of(
                "CONCURRENT_HEADS", List.of(new Series.Point(0, 2, 1)), "EQUIVOCATION", List.of(new Series.Point(0, 1, 0))));
    }

    @Test
    void aLateEventWithinTheGraceCountsInItsMinuteAndOneLaterOnlyInTheHourAndTotals() {
        given(T0 + 5_000, heads("alice", "/a", false, "dev_a", "dev_b"));
        given(T0 + 9 * MINUTE, heads("alice", "/a", false, "dev_a", "dev_b"));
        given(T0 + 30_000, heads("alice", "/a", false, "dev_a", "dev_b")); // 8.5 minutes late: within 10
        given(T0 + 20 * MINUTE, heads("alice", "/a", false, "dev_a", "dev_b"));
        given(T0 + 40_000, heads("alice", "/a", true, "dev_a", "dev_b")); // 19 minutes late: the minute has closed

        assertThat(points(AnalyticsWindow.MINUTE, Dimension.PATH).get("/a")).containsExactly(
                new Series.Point(T0, 2, 0), new Series.Point(T0 + 9 * MINUTE, 1, 0), new Series.Point(T0 + 20 * MINUTE, 1, 0));
        assertThat(points(AnalyticsWindow.HOUR, Dimension.PATH).get("/a")).containsExactly(new Series.Point(T0, 5, 1));
        assertThat(points(AnalyticsWindow.TOTAL, Dimension.PATH).get("/a")).containsExactly(new Series.Point(0, 5, 1));
    }

    @Test
    void concurrentHeadsCountForTheirIdentityPathPrefixAndEveryDeviceWithAHead() {
        given(T0, heads("alice", "/profile/name", true, "dev_a", "dev_b", "dev_c"));

        assertThat(total(Dimension.IDENTITY)).containsExactly(Map.entry("alice", new Tally(1, 1)));
        assertThat(total(Dimension.PATH)).containsExactly(Map.entry("/profile/name", new Tally(1, 1)));
        assertThat(total(Dimension.PREFIX)).containsExactly(Map.entry("/profile", new Tally(1, 1)));
        assertThat(total(Dimension.DEVICE)).containsOnlyKeys("alice/dev_a", "alice/dev_b", "alice/dev_c");
        assertThat(total(Dimension.EQUIVOCATOR)).isEmpty();
    }

    @Test
    void anEquivocationCountsItsDeviceAsAnEquivocatorAndAnAuthorityForkItsIdentity() {
        given(T0, equivocation("alice", "dev_a"));
        given(T0, authorityFork("bob"));

        assertThat(total(Dimension.EQUIVOCATOR)).containsExactly(Map.entry("alice/dev_a", new Tally(1, 0)));
        assertThat(total(Dimension.IDENTITY)).containsOnlyKeys("alice", "bob");
        assertThat(total(Dimension.KIND)).containsOnlyKeys("EQUIVOCATION", "AUTHORITY_FORK");
        assertThat(total(Dimension.PATH)).isEmpty();
    }

    @Test
    void topNRanksByEventsThenByValueOverTheWindowsOfTheRange() {
        for (String identity : List.of("carol", "alice", "bob", "alice", "dave", "alice", "bob")) {
            given(T0 + 1_000, heads(identity, "/x", false, "dev_a", "dev_b"));
        }
        given(T0 + 2 * MINUTE, heads("dave", "/x", false, "dev_a", "dev_b"));

        assertThat(queries.top(AnalyticsWindow.MINUTE, Dimension.IDENTITY, T0, T0, 3)).containsExactly(
                new Ranked("alice", 3, 0), new Ranked("bob", 2, 0), new Ranked("carol", 1, 0));
        assertThat(queries.top(AnalyticsWindow.MINUTE, Dimension.IDENTITY, T0, T0 + 2 * MINUTE, 3)).containsExactly(
                new Ranked("alice", 3, 0), new Ranked("bob", 2, 0), new Ranked("dave", 2, 0));
        assertThat(queries.top(AnalyticsWindow.TOTAL, Dimension.IDENTITY, 0, 0, 10)).hasSize(4);
    }

    @Test
    void rejectionsAndCompactionsAreCountedByReasonAndCause() {
        pipe(Topics.REJECTED, "alice", T0, rejected(RejectionKind.BAD_SIGNATURE));
        pipe(Topics.REJECTED, "alice", T0, rejected(RejectionKind.BAD_SIGNATURE));
        pipe(Topics.REJECTED, "bob", T0, rejected(RejectionKind.UNDECODABLE));
        pipe(Topics.COMPACTIONS, "bob", T0, new Compaction(CompactionCause.FORK_SWITCH, "bob", "dev_a", BigDecimal.valueOf(3), hash(3), null, "lost its branch"));

        assertThat(total(Dimension.REJECTION)).isEqualTo(Map.of("BAD_SIGNATURE", new Tally(2, 0), "UNDECODABLE", new Tally(1, 0)));
        assertThat(total(Dimension.COMPACTION)).isEqualTo(Map.of("FORK_SWITCH", new Tally(1, 0)));
        assertThat(total(Dimension.KIND)).isEmpty();
    }

    @Test
    void everyCountIsPublishedOnTheAnalyticsTopicTheLastUpdateBeingTheCount() {
        given(T0, heads("alice", "/profile", true, "dev_a", "dev_b"));
        given(T0 + 1, heads("alice", "/profile", false, "dev_a", "dev_b"));

        Map<String, ConflictAggregate> latest = new LinkedHashMap<>();
        folded();
        driver.createOutputTopic(Topics.ANALYTICS, Serdes.String().deserializer(),
                new ConfluentAvroSerde<ConflictAggregate>(registry, ConflictAggregate.getClassSchema())).readKeyValuesToList()
                .forEach(kv -> latest.put(kv.key, kv.value));
        assertThat(latest.get("1m|" + T0 + "|kind/CONCURRENT_HEADS")).isEqualTo(new ConflictAggregate("1m", Instant.ofEpochMilli(T0),
                Instant.ofEpochMilli(T0 + MINUTE), "kind", "CONCURRENT_HEADS", 2L, 1L));
        assertThat(latest.get("total|0|path//profile")).satisfies(a -> assertThat(a.getEvents()).isEqualTo(2));
        assertThat(latest.get("1h|" + T0 + "|prefix//profile").getClockSensitive()).isEqualTo(1);
    }

    private Map<String, List<Series.Point>> points(AnalyticsWindow window, Dimension by) {
        Map<String, List<Series.Point>> out = new LinkedHashMap<>();
        queries.counts(window, by, T0 - 3_600_000, T0 + 3_600_000).forEach(s -> out.put(s.value(), s.points()));
        return out;
    }

    private Map<String, Tally> total(Dimension by) {
        Map<String, Tally> out = new LinkedHashMap<>();
        queries.counts(AnalyticsWindow.TOTAL, by, 0, 0).forEach(s -> out.put(s.value(), new Tally(s.events(),
                s.points().stream().mapToLong(Series.Point::clockSensitive).sum())));
        return out;
    }

    /** One commit interval of wall clock: the fold forwards what it holds. */
    private void folded() {
        driver.advanceWallClockTime(Duration.ofMillis(COMMIT_INTERVAL_MS));
    }

    private void given(long timestamp, ConflictEvent event) {
        pipe(Topics.CONFLICTS, event.getIdentity(), timestamp, event);
    }

    private <V extends SpecificRecord> void pipe(String topic, String key, long timestamp, V value) {
        driver.createInputTopic(topic, Serdes.String().serializer(), new ConfluentAvroSerde<V>(registry, value.getSchema()))
                .pipeInput(key, value, Instant.ofEpochMilli(timestamp));
    }

    static ConflictEvent heads(String identity, String path, boolean clockSensitive, String winner, String... losers) {
        List<ConflictHead> loserHeads = java.util.Arrays.stream(losers).map(d -> head(d, 1)).toList();
        return ConflictEvent.newBuilder().setIdentity(identity).setKind(ConflictKind.CONCURRENT_HEADS).setPath(path)
                .setWinner(new HeadRef(winner, BigDecimal.valueOf(2), hash(2))).setLosers(loserHeads.stream().map(h -> new HeadRef(h.getDeviceId(), BigDecimal.ONE, hash(1))).toList())
                .setEventTime(Instant.EPOCH).setClockSensitive(clockSensitive).setWinnerHead(head(winner, 2)).setLoserHeads(loserHeads).build();
    }

    static ConflictEvent equivocation(String identity, String device) {
        return ConflictEvent.newBuilder().setIdentity(identity).setKind(ConflictKind.EQUIVOCATION).setDeviceId(device).setDeviceSequence(BigDecimal.valueOf(4))
                .setEntryHashes(List.of(hash(1), hash(2))).setEventTime(Instant.EPOCH).build();
    }

    static ConflictEvent authorityFork(String identity) {
        return ConflictEvent.newBuilder().setIdentity(identity).setKind(ConflictKind.AUTHORITY_FORK).setAuthoritySequence(BigDecimal.ONE)
                .setEntryHashes(List.of(hash(1), hash(2))).setChosenRecord(hash(2)).setEventTime(Instant.EPOCH).build();
    }

    static RejectedRecord rejected(RejectionKind reason) {
        return RejectedRecord.newBuilder().setIdentity("alice").setReason(reason).setRule(reason.name()).setDetail("test")
                .setSourceTopic(Topics.ENTRIES).setSourcePartition(0).setSourceOffset(0L).build();
    }

    private static ConflictHead head(String device, long sequence) {
        return new ConflictHead(device, BigDecimal.valueOf(sequence), hash((int) sequence), PathState.PRESENT, "cid", BigDecimal.valueOf(1_000));
    }

    private static Hash32 hash(int n) {
        byte[] bytes = new byte[32];
        bytes[31] = (byte) n;
        return new Hash32(bytes);
    }

    private TopologyTestDriver driver() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-analytics-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/driver-state");
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(COMMIT_INTERVAL_MS));
        props.put("processing.exception.handler.global.enabled", "true");
        return new TopologyTestDriver(JoltTopology.build(registry, op -> { }, SignatureCheck.DEFINITION), props);
    }
}
