package io.jolt.stream.cli;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.KafkaBroker;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code jolt conflicts export} on the conflicts of the demo's workload: the CSV and the JSON
 * Lines open in DuckDB as they are, hold one row per event of the topic, and analytics.md's analysis
 * (the ten paths with the most clock-sensitive conflicts) gives what the events themselves say,
 * and what the service's own analytics say.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConflictExportIT {
    static final String TOP_PATHS = "SELECT path, count(*) AS conflicts FROM %s WHERE clock_sensitive GROUP BY path "
            + "ORDER BY conflicts DESC, path LIMIT 10";
    KafkaBroker broker;
    JoltNode node;
    List<ConflictEvent> events = new ArrayList<>();
    Path dir;

    @BeforeAll
    void runTheWorkloadThroughTheService(KafkaBroker broker) throws Exception {
        this.broker = broker;
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        node = JoltNode.start(harness.config("jolt-it-export", StreamHarness.tempStateDir("export"), 2).with(JoltNode.HTTP_PORT, "0"), registry)
                .awaitRunning(Duration.ofSeconds(60));
        Workload.Generated workload = Workload.generate(new Workload.Shape(150, 3, 10, 21), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        harness.produce(VectorRecords.ofRecords(records, registry));
        harness.awaitProcessed("jolt-it-export", Duration.ofSeconds(120));
        ConfluentAvroSerde<ConflictEvent> serde = new ConfluentAvroSerde<>(registry, ConflictEvent.getClassSchema());
        harness.readAll(Topics.CONFLICTS, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .forEach(r -> events.add(serde.deserialize(r.topic(), r.value())));
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "export-");
        awaitCountedByTheService();
    }

    /** The service's aggregates read its committed conflicts, a moment after the inputs are processed. */
    void awaitCountedByTheService() throws Exception {
        long heads = events.stream().filter(e -> e.getKind() == ConflictKind.CONCURRENT_HEADS).count();
        // 120 s: on a loaded 2-core machine the analytics sub-topologies once needed more than 60 s
        await("the service counted every conflict within 120 s").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> apiPaths().values().stream().mapToLong(p -> p[0]).sum() == heads);
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void theReadmeQueryOnTheExportAnswersAsTheAnalyticsApiDoes() throws Exception {
        Path csv = dir.resolve("for-api.csv");
        assertThat(CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--out", csv.toString()).exitCode()).isZero();
        Map<String, Long> fromApi = new LinkedHashMap<>();
        apiPaths().entrySet().stream().filter(e -> e.getValue()[1] > 0)
                .sorted(Comparator.<Map.Entry<String, long[]>>comparingLong(e -> -e.getValue()[1]).thenComparing(Map.Entry::getKey))
                .limit(10).forEach(e -> fromApi.put(e.getKey(), e.getValue()[1]));
        assertThat(topPaths("read_csv_auto('" + csv + "')")).isEqualTo(fromApi).isNotEmpty();
    }

    /** Every path's conflicts and clock-sensitive conflicts, as /v1/analytics/top counts them. */
    Map<String, long[]> apiPaths() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(node.baseUrl() + "/v1/analytics/top?what=paths&window=total&n=1000")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, long[]> out = new TreeMap<>();
        new ObjectMapper().readTree(r.body()).get("top").forEach(p ->
                out.put(p.get("value").asText(), new long[] {p.get("events").asLong(), p.get("clock_sensitive").asLong()}));
        return out;
    }

    @Test
    void theCsvOpensInDuckDbWithOneRowPerEventAndAnswersTheReadmeQuery() throws Exception {
        Path csv = dir.resolve("conflicts.csv");
        CommandRun run = CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--format", "csv", "--out", csv.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("exported " + String.format("%,d", events.size()) + " conflict event(s) as csv");
        String table = "read_csv_auto('" + csv + "')";
        assertThat(count(table)).isEqualTo(events.size());
        assertThat(topPaths(table)).isEqualTo(expectedTopPaths()).isNotEmpty();
    }

    @Test
    void theJsonLinesOpenInDuckDbWithListsAsArrays() throws Exception {
        Path jsonl = dir.resolve("conflicts.jsonl");
        assertThat(CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--format", "jsonl", "--out", jsonl.toString())
                .exitCode()).isZero();
        String table = "read_json_auto('" + jsonl + "')";
        assertThat(count(table)).isEqualTo(events.size());
        assertThat(topPaths(table)).isEqualTo(expectedTopPaths());
        long losers = events.stream().mapToLong(e -> e.getLoserHeads().size()).sum();
        assertThat(scalar("SELECT sum(len(loser_device_ids)) FROM " + table)).isEqualTo(losers);
    }

    @Test
    void kindAndTimeRangeSelectTheRows() throws Exception {
        CommandRun equivocations = CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--kind", "equivocation");
        assertThat(equivocations.exitCode()).isZero();
        long expected = events.stream().filter(e -> e.getKind() == ConflictKind.EQUIVOCATION).count();
        assertThat(expected).isPositive();
        assertThat(equivocations.out().lines().skip(1)).hasSize((int) expected).allSatisfy(l -> assertThat(l).contains(",equivocation,"));

        CommandRun future = CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--since", "2999-01-01T00:00:00Z");
        assertThat(future.exitCode()).isZero();
        assertThat(future.out().lines()).as("only the header").singleElement().satisfies(h -> assertThat(h).startsWith("event_time,kind,identity,path"));

        CommandRun bad = CommandRun.of("conflicts", "export", "--bootstrap", broker.bootstrapServers(), "--since", "yesterday");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("--since: not an ISO-8601 instant or ms since the epoch: yesterday");
    }

    private Map<String, Long> expectedTopPaths() {
        Map<String, Long> byPath = events.stream().filter(ConflictEvent::getClockSensitive)
                .collect(Collectors.groupingBy(ConflictEvent::getPath, TreeMap::new, Collectors.counting()));
        Map<String, Long> top = new LinkedHashMap<>();
        byPath.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(10).forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    private static Map<String, Long> topPaths(String table) throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet r = s.executeQuery(String.format(TOP_PATHS, table))) {
            while (r.next()) {
                out.put(r.getString(1), r.getLong(2));
            }
        }
        return out;
    }

    private static long count(String table) throws Exception {
        return scalar("SELECT count(*) FROM " + table);
    }

    private static long scalar(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
