package io.jolt.stream.api;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictAggregate;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The conflict aggregates on a real broker with two instances, asked through the HTTP API of
 * each: given the demo's workload, both instances answer the same, and their answers equal a
 * direct count of the events on the conflicts, rejected and compactions topics. Each instance
 * counts only the values its tasks own, so an answer right from both is a merge of both parts.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnalyticsApiIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String APP = "jolt-it-analytics";
    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    StreamHarness harness;
    JoltNode a;
    JoltNode b;
    List<ConflictEvent> conflicts;
    List<RejectedRecord> rejected;
    List<Compaction> compactions;

    @BeforeAll
    void twoInstancesCountTheDemoWorkload(KafkaBroker broker) throws Exception {
        harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        a = node(registry, "analytics-a");
        b = node(registry, "analytics-b");
        a.awaitRunning(Duration.ofSeconds(60));
        b.awaitRunning(Duration.ofSeconds(60));
        Workload.Generated workload = Workload.generate(new Workload.Shape(150, 3, 10, 21), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        harness.produce(VectorRecords.ofRecords(records, registry));
        harness.awaitProcessed(APP, Duration.ofSeconds(120));
        conflicts = values(Topics.CONFLICTS, ConflictEvent.getClassSchema(), registry);
        rejected = values(Topics.REJECTED, RejectedRecord.getClassSchema(), registry);
        compactions = values(Topics.COMPACTIONS, Compaction.getClassSchema(), registry);
        assertThat(conflicts).as("the workload's conflicts").hasSizeGreaterThan(100);
        awaitCounted();
    }

    JoltNode node(InMemorySchemaRegistry registry, String name) throws Exception {
        return JoltNode.start(harness.config(APP, StreamHarness.tempStateDir(name), 4).with(JoltNode.HTTP_PORT, "0")
                .with("num.stream.threads", "1"), registry);
    }

    /** The aggregates read committed outputs of the same application, so they finish a little after the inputs. */
    void awaitCounted() throws Exception {
        Map<String, Long> expected = count(conflicts, e -> e.getKind().name());
        await("conflicts and rejections counted").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(totals(a, "kind").equals(expected) && totals(a, "rejection").equals(count(rejected, r -> r.getReason().name())))
                        .as("counted within 90 s: %s, expected %s", totals(a, "kind"), expected).isTrue());
    }

    @AfterAll
    void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    @Test
    void totalsByKindAreTheConflictEventsCountedFromEitherInstance() throws Exception {
        Map<String, Long> byKind = count(conflicts, e -> e.getKind().name());
        assertThat(byKind).containsKeys(ConflictKind.CONCURRENT_HEADS.name(), ConflictKind.EQUIVOCATION.name());
        for (JoltNode node : List.of(a, b)) {
            JsonNode answer = get(node, "/v1/analytics/conflicts?window=total&by=kind");
            assertThat(answer.get("instances").asInt()).as("both instances' parts").isEqualTo(2);
            assertThat(totals(node, "kind")).isEqualTo(byKind);
            assertThat(sensitive(answer)).isEqualTo(count(conflicts.stream().filter(ConflictEvent::getClockSensitive).toList(), e -> e.getKind().name()));
        }
    }

    @Test
    void minutesByKindAreTheEventsByTheMinuteOfTheirTime() throws Exception {
        Map<String, Map<Long, Long>> expected = new TreeMap<>();
        conflicts.forEach(e -> expected.computeIfAbsent(e.getKind().name(), k -> new TreeMap<>())
                .merge(Math.floorDiv(e.getEventTime().toEpochMilli(), 60_000L) * 60_000L, 1L, Long::sum));
        long from = expected.values().stream().flatMap(m -> m.keySet().stream()).min(Long::compare).orElseThrow();
        long to = expected.values().stream().flatMap(m -> m.keySet().stream()).max(Long::compare).orElseThrow();
        for (JoltNode node : List.of(a, b)) {
            JsonNode answer = get(node, "/v1/analytics/conflicts?window=1m&by=kind&from=" + from + "&to=" + to);
            Map<String, Map<Long, Long>> shown = new TreeMap<>();
            answer.get("series").forEach(s -> s.get("points").forEach(p ->
                    shown.computeIfAbsent(s.get("value").asText(), k -> new TreeMap<>()).put(p.get("start").asLong(), p.get("events").asLong())));
            assertThat(shown).isEqualTo(expected);
        }
    }

    @Test
    void hoursAddUpToTheTotals() throws Exception {
        JsonNode hours = get(b, "/v1/analytics/conflicts?window=1h&by=identity");
        Map<String, Long> byIdentity = new TreeMap<>();
        hours.get("series").forEach(s -> s.get("points").forEach(p -> byIdentity.merge(s.get("value").asText(), p.get("events").asLong(), Long::sum)));
        assertThat(byIdentity).isEqualTo(count(conflicts, ConflictEvent::getIdentity));
    }

    @Test
    void topIdentitiesArePickedOverBothInstancesPartsExactly() throws Exception {
        Map<String, Long> expected = top(count(conflicts, ConflictEvent::getIdentity), 5);
        for (JoltNode node : List.of(a, b)) {
            assertThat(ranked(get(node, "/v1/analytics/top?what=identities&window=total&n=5"))).isEqualTo(expected);
            assertThat(ranked(get(node, "/v1/analytics/top?what=identities&window=1h&n=5"))).isEqualTo(expected);
        }
    }

    @Test
    void topPathsAndEquivocatorsAreTheEventsOwn() throws Exception {
        List<ConflictEvent> heads = conflicts.stream().filter(e -> e.getKind() == ConflictKind.CONCURRENT_HEADS).toList();
        assertThat(ranked(get(a, "/v1/analytics/top?what=paths&window=total&n=10"))).isEqualTo(top(count(heads, ConflictEvent::getPath), 10));
        List<ConflictEvent> forks = conflicts.stream().filter(e -> e.getKind() == ConflictKind.EQUIVOCATION).toList();
        assertThat(ranked(get(b, "/v1/analytics/top?what=equivocators&window=total&n=1000")))
                .isEqualTo(top(count(forks, e -> e.getIdentity() + "/" + e.getDeviceId()), 1000));
    }

    @Test
    void rejectionsAndCompactionsAreCountedByReasonAndCause() throws Exception {
        assertThat(totals(b, "rejection")).isEqualTo(count(rejected, r -> r.getReason().name())).isNotEmpty();
        assertThat(totals(a, "compaction")).isEqualTo(count(compactions, c -> c.getCause().name()));
    }

    @Test
    void theAnalyticsTopicCarriesTheSameTotals() throws Exception {
        ConfluentAvroSerde<ConflictAggregate> serde = new ConfluentAvroSerde<>(TopicSchemas.seededRegistry(), ConflictAggregate.getClassSchema());
        Map<String, Long> latest = new TreeMap<>();
        harness.readAll(Topics.ANALYTICS, new StringDeserializer(), new ByteArrayDeserializer()).forEach(r -> {
            ConflictAggregate aggregate = serde.deserialize(Topics.ANALYTICS, r.value());
            if (aggregate.getWindow().equals("total") && aggregate.getDimension().equals("kind")) {
                latest.put(aggregate.getValue(), aggregate.getEvents());
            }
        });
        assertThat(latest).isEqualTo(totals(a, "kind"));
    }

    @Test
    void aBadQuestionIsABadParameterNamingWhatIsAllowed() throws Exception {
        HttpResponse<String> by = http.send(request(a, "/v1/analytics/conflicts?by=colour"), HttpResponse.BodyHandlers.ofString());
        assertThat(by.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(by.body()).at("/error/message").asText()).isEqualTo(
                "by must be one of: kind, identity, prefix, path, device, equivocator, rejection, loss, compaction");
        HttpResponse<String> what = http.send(request(b, "/v1/analytics/top"), HttpResponse.BodyHandlers.ofString());
        assertThat(what.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(what.body()).at("/error/code").asText()).isEqualTo("bad_parameter");
        HttpResponse<String> range = http.send(request(a, "/v1/analytics/conflicts?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z"),
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(range.body()).at("/error/message").asText()).isEqualTo("from is after to");
    }

    <V extends SpecificRecord> List<V> values(String topic, Schema schema, InMemorySchemaRegistry registry) {
        ConfluentAvroSerde<V> serde = new ConfluentAvroSerde<>(registry, schema);
        return harness.readAll(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer()).stream()
                .map(r -> serde.deserialize(topic, r.value())).toList();
    }

    static <T> Map<String, Long> count(List<T> items, Function<T, String> by) {
        return items.stream().collect(Collectors.groupingBy(by, TreeMap::new, Collectors.counting()));
    }

    /** The n values with the most events, ties by value: the ranking the API promises. */
    static Map<String, Long> top(Map<String, Long> counts, int n) {
        Map<String, Long> out = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n).forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    static Map<String, Long> ranked(JsonNode answer) {
        assertThat(answer.get("instances").asInt()).isEqualTo(2);
        Map<String, Long> out = new LinkedHashMap<>();
        answer.get("top").forEach(r -> out.put(r.get("value").asText(), r.get("events").asLong()));
        return out;
    }

    Map<String, Long> totals(JoltNode node, String by) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        get(node, "/v1/analytics/conflicts?window=total&by=" + by).get("series")
                .forEach(s -> s.get("points").forEach(p -> out.merge(s.get("value").asText(), p.get("events").asLong(), Long::sum)));
        return out;
    }

    static Map<String, Long> sensitive(JsonNode answer) {
        Map<String, Long> out = new TreeMap<>();
        answer.get("series").forEach(s -> s.get("points").forEach(p -> {
            if (p.get("clock_sensitive").asLong() > 0) {
                out.merge(s.get("value").asText(), p.get("clock_sensitive").asLong(), Long::sum);
            }
        }));
        return out;
    }

    HttpRequest request(JoltNode node, String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(node.baseUrl() + pathAndQuery)).GET().build();
    }

    JsonNode get(JoltNode node, String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(request(node, pathAndQuery), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(pathAndQuery + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
