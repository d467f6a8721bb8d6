package io.jolt.stream.api;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.Promtool;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.HttpSchemaRegistry;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every endpoint and error outcome against two service instances on one real broker: each
 * instance answers every identity the same (queries for keys it does not own are forwarded).
 * Last, one instance is restarted on an empty state directory: not ready until it has its tasks.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HttpApiIT {
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    StreamHarness harness;
    InMemorySchemaRegistry registry;
    JoltNode a;
    JoltNode b;
    JsonNode expected;
    JsonNode ingestAnswer;

    record Answer(int status, JsonNode body) {}

    @BeforeAll
    void startTwoInstancesAndIngestTheMixedScenarios(KafkaBroker broker) throws Exception {
        harness = new StreamHarness(broker);
        harness.resetTopics();
        registry = TopicSchemas.seededRegistry();
        a = startInstance("api-a");
        b = startInstance("api-b");
        a.awaitRunning(Duration.ofSeconds(60));
        b.awaitRunning(Duration.ofSeconds(60));
        Answer posted = post(a, "/v1/records", Files.readAllBytes(Vectors.bundle("mixed")));
        ingestAnswer = posted.body();
        harness.awaitProcessed("jolt-it-api", Duration.ofSeconds(60));
        awaitBothReady();
        expected = JSON.readTree(Files.readAllBytes(Vectors.expected("mixed")));
    }

    JoltNode startInstance(String stateDir) throws Exception {
        return JoltNode.start(harness.config("jolt-it-api", StreamHarness.tempStateDir(stateDir), 4).with(JoltNode.HTTP_PORT, "0")
                .with("num.stream.threads", "1"), registry);
    }

    void awaitBothReady() throws Exception {
        for (JoltNode node : List.of(a, b)) {
            await("instance ready").atMost(Duration.ofSeconds(60)).until(() -> get(node, "/health/ready").status() == 200);
        }
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

    Answer get(JoltNode node, String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + pathAndQuery)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    }

    Answer post(JoltNode node, String path, byte[] body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    }

    static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Test
    void theOpenApiDocumentDescribesEveryRouteAndNothingElse() throws Exception {
        assertThat(new TreeSet<>(a.routes())).as("routes registered = operations of " + OpenApiContract.SERVICE.resource())
                .isEqualTo(OpenApiContract.SERVICE.operations());
        HttpResponse<String> served = http.send(HttpRequest.newBuilder(URI.create(b.baseUrl() + "/openapi.json")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(new ObjectMapper().readTree(served.body())).isEqualTo(OpenApiContract.SERVICE.document());
    }

    @Test
    void postRecordsAnswersLineByLine() {
        assertThat(ingestAnswer.get("accepted").asInt()).isPositive();
        List<String> reasons = new ArrayList<>();
        ingestAnswer.get("results").forEach(r -> {
            if (!r.get("accepted").asBoolean()) {
                reasons.add(r.get("reason").asText());
            } else {
                assertThat(r.get("topic").asText()).startsWith("jolt.");
            }
        });
        assertThat(reasons).isNotEmpty().allMatch(r -> List.of("invalid_entry", "invalid_authority", "unreadable_line").contains(r));
    }

    @Test
    void resolveAnswersEverySingletonTheSameFromBothInstances() throws Exception {
        int checked = 0;
        for (JsonNode identity : expected) {
            String id = identity.get("identity").asText();
            for (JsonNode s : identity.get("singletons")) {
                String url = "/v1/identities/" + id + "/resolve?path=" + q(s.get("path").asText());
                Answer fromA = get(a, url);
                Answer fromB = get(b, url);
                assertThat(fromB).isEqualTo(fromA);
                if (s.get("state").asText().equals("present")) {
                    assertThat(fromA.status()).isEqualTo(200);
                    assertThat(fromA.body().get("content_id")).isEqualTo(s.get("content_id"));
                    assertThat(fromA.body().get("head")).isEqualTo(s.get("head"));
                    assertThat(fromA.body().get("conflict_count").asInt()).isEqualTo(s.get("conflicts").size());
                } else {
                    assertThat(fromA.status()).isEqualTo(410);
                    assertThat(fromA.body().get("error").get("code").asText()).isEqualTo("path_tombstoned");
                    assertThat(fromA.body().get("error").get("details").get("head")).isEqualTo(s.get("head"));
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(5);
    }

    @Test
    void resolveErrorsAreDistinct() throws Exception {
        String id = expected.get(0).get("identity").asText();
        Answer missing = get(b, "/v1/identities/" + id + "/resolve?path=" + q("/never/written"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body().get("error").get("code").asText()).isEqualTo("path_not_found");
        Answer nonCanonical = get(a, "/v1/identities/" + id + "/resolve?path=" + q("/a//b"));
        assertThat(nonCanonical.status()).isEqualTo(400);
        assertThat(nonCanonical.body().get("error").get("code").asText()).isEqualTo("path_not_canonical");
        Answer unknown = get(a, "/v1/identities/jolt1unknownidentityaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/resolve?path=%2Fp");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().get("error").get("code").asText()).isEqualTo("identity_not_found");
        Answer noPath = get(a, "/v1/identities/" + id + "/resolve");
        assertThat(noPath.status()).isEqualTo(400);
        assertThat(noPath.body().get("error").get("code").asText()).isEqualTo("bad_parameter");
    }

    @Test
    void enumeratePagesThroughAppendsInProtocolOrderWithAStableToken() throws Exception {
        int identitiesWithAppends = 0;
        for (JsonNode identity : expected) {
            if (identity.get("appends").isEmpty()) {
                continue;
            }
            identitiesWithAppends++;
            String id = identity.get("identity").asText();
            List<JsonNode> collected = new ArrayList<>();
            String token = null;
            int pages = 0;
            do {
                String url = "/v1/identities/" + id + "/enumerate?prefix=%2F&limit=2" + (token == null ? "" : "&page_token=" + token);
                Answer page = get(pages % 2 == 0 ? a : b, url);
                assertThat(page.status()).isEqualTo(200);
                page.body().get("records").forEach(collected::add);
                token = page.body().get("next_page_token").isNull() ? null : page.body().get("next_page_token").asText();
                pages++;
            } while (token != null);
            List<JsonNode> want = new ArrayList<>();
            identity.get("appends").forEach(want::add);
            assertThat(collected).isEqualTo(want);
        }
        assertThat(identitiesWithAppends).isPositive();
        String id = expected.get(0).get("identity").asText();
        assertThat(get(a, "/v1/identities/" + id + "/enumerate?prefix=posts").body().get("error").get("code").asText())
                .isEqualTo("prefix_not_canonical");
        assertThat(get(a, "/v1/identities/" + id + "/enumerate?page_token=zz").body().get("error").get("code").asText())
                .isEqualTo("bad_page_token");
        assertThat(get(a, "/v1/identities/" + id + "/enumerate?limit=0").status()).isEqualTo(400);
        // Found by HttpEdgesFuzzIT (both once answered 500):
        assertThat(get(a, "/v1/identities/" + id + "/enumerate?page_token=").status()).as("an empty token: the first page").isEqualTo(200);
        assertThat(get(a, "/v1/identities/" + id + "/enumerate?page_token=ffff").body().get("error").get("code").asText())
                .isEqualTo("bad_page_token");
    }

    @Test
    void identityViewIsTheMergedStateFromEitherInstance() throws Exception {
        for (JsonNode identity : expected) {
            String id = identity.get("identity").asText();
            Answer fromA = get(a, "/v1/identities/" + id);
            Answer fromB = get(b, "/v1/identities/" + id);
            assertThat(fromA.status()).isEqualTo(200);
            assertThat(fromB).isEqualTo(fromA);
            for (String field : List.of("identity", "required_operation_level", "devices", "singletons", "appends")) {
                assertThat(fromA.body().get(field)).as(id + " " + field).isEqualTo(identity.get(field));
            }
            Answer conflicts = get(b, "/v1/identities/" + id + "/conflicts");
            assertThat(conflicts.status()).isEqualTo(200);
            long withConflicts = 0;
            for (JsonNode s : identity.get("singletons")) {
                withConflicts += s.get("conflicts").isEmpty() ? 0 : 1;
            }
            assertThat(conflicts.body().get("singletons")).hasSize((int) withConflicts);
        }
        assertThat(get(a, "/v1/identities/jolt1nobody").body().get("error").get("code").asText()).isEqualTo("identity_not_found");
    }

    @Test
    void oversizedBodiesAndMalformedLinesGetClearErrors() throws Exception {
        Answer tooLarge = post(a, "/v1/records", new byte[(int) RecordsEndpoint.MAX_BODY_BYTES + 1]);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.body().get("error").get("code").asText()).isEqualTo("body_too_large");
        Answer malformed = post(a, "/v1/records", "not json\n{\"record_type\":\"jolt.other\",\"identity\":\"x\"}\n".getBytes(StandardCharsets.UTF_8));
        assertThat(malformed.status()).isEqualTo(422);
        assertThat(malformed.body().get("results").get(0).get("reason").asText()).isEqualTo("unreadable_line");
        assertThat(malformed.body().get("results").get(1).get("line").asInt()).isEqualTo(2);
    }

    @Test
    void deltaSyncPagesFromTheStoresAreByteIdenticalToTheProtocolCoresFromEitherInstance() throws Exception {
        io.jolt.stream.protocol.json.Bundle bundle = new io.jolt.stream.protocol.json.Bundle();
        Vectors.lines("mixed").forEach(bundle::add);
        for (io.jolt.stream.protocol.MergedState state : bundle.merge(SignatureCheck.DEFINITION)) {
            for (List<io.jolt.stream.protocol.sync.Cursor> cursors : List.of(List.<io.jolt.stream.protocol.sync.Cursor>of(), heads(state))) {
                io.jolt.stream.protocol.sync.SyncRequest request = new io.jolt.stream.protocol.sync.SyncRequest(state.identity(), 3, 2,
                        cursors, List.of(), List.of());
                byte[] expected = io.jolt.stream.protocol.sync.SyncResponder.respond(state, request,
                        io.jolt.stream.protocol.sync.SyncResponder.Limits.DEFAULT).encode();
                for (JoltNode node : List.of(a, b)) {
                    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/jolt/device-writer/sync"))
                            .header("Content-Type", "application/vnd.jolt.device-writer-sync")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(request.encode())).build(), HttpResponse.BodyHandlers.ofByteArray());
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).as(state.identity() + " " + cursors.size() + " cursors").isEqualTo(expected);
                }
            }
        }
        HttpResponse<String> garbage = http.send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/jolt/device-writer/sync"))
                .POST(HttpRequest.BodyPublishers.ofString("not a request")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(garbage.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(garbage.body()).get("error").get("code").asText()).isEqualTo("bad_sync_request");
    }

    static List<io.jolt.stream.protocol.sync.Cursor> heads(io.jolt.stream.protocol.MergedState state) {
        List<io.jolt.stream.protocol.sync.Cursor> out = new ArrayList<>();
        state.deviceLogs().forEach(log -> log.head().ifPresent(h -> out.add(io.jolt.stream.protocol.sync.Cursor.of(h))));
        return out;
    }

    @Test
    void aRecordOnATopicDecodesWithTheSchemaTheRegistryUrlServesForItsId() throws Exception {
        // given: values the service wrote to the state topic, as any consumer reads them: magic byte 0, the schema id, Avro
        List<ConsumerRecord<byte[], byte[]>> records = harness.readAll(Topics.STATE, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        byte[] value = records.get(0).value();
        ByteBuffer wire = ByteBuffer.wrap(value);
        assertThat(wire.get()).as("magic byte").isZero();
        int id = wire.getInt();
        ConfluentAvroSerde<StateChange> inService = new ConfluentAvroSerde<>(registry, StateChange.getClassSchema());

        // when: a reader outside asks the registry URL for that id, as a Confluent deserializer does
        Answer schema = get(b, "/registry/schemas/ids/" + id);

        // expect: Avro alone decodes the value with the schema served, to every byte, and reads what the service wrote
        assertThat(schema.status()).isEqualTo(200);
        Schema writer = new Schema.Parser().parse(schema.body().get("schema").asText());
        BinaryDecoder in = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null);
        GenericRecord decoded = new GenericDatumReader<GenericRecord>(writer).read(null, in);
        assertThat(in.isEnd()).as("the whole value read").isTrue();
        assertThat(encoded(writer, decoded)).isEqualTo(Arrays.copyOfRange(value, 5, value.length));
        StateChange written = inService.deserialize(Topics.STATE, value);
        assertThat(decoded.get("identity").toString()).isEqualTo(written.getIdentity());
        assertThat(decoded.get("path").toString()).isEqualTo(written.getPath());
        // and a Confluent-REST client given the URL (the service's own client) reads every value as the service does
        String registryUrl = b.registryUrl().orElseThrow();
        assertThat(registryUrl).isEqualTo(b.baseUrl() + "/registry");
        ConfluentAvroSerde<StateChange> outside = new ConfluentAvroSerde<>(new HttpSchemaRegistry(registryUrl, HttpSchemaRegistry.Options.defaults()),
                StateChange.getClassSchema());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            assertThat(outside.deserialize(Topics.STATE, record.value())).isEqualTo(inService.deserialize(Topics.STATE, record.value()));
        }
    }

    static byte[] encoded(Schema schema, GenericRecord record) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, out);
        return bytes.toByteArray();
    }

    @Test
    void healthAndMetrics() throws Exception {
        assertThat(get(a, "/health").body().get("ready").asBoolean()).isTrue();
        for (JoltNode node : List.of(a, b)) {
            assertThat(get(node, "/health/live")).isEqualTo(new Answer(200, JSON.readTree("{\"status\":\"live\",\"streams_state\":\"RUNNING\",\"reasons\":[]}")));
            assertThat(get(node, "/health/ready")).isEqualTo(new Answer(200, JSON.readTree("{\"status\":\"ready\",\"streams_state\":\"RUNNING\",\"reasons\":[]}")));
        }
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(b.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("kafka_stream", "jolt_entries_verified_total", "jolt_reevaluations_total",
                "jolt_rejected_total{reason=\"invalid_entry\"}", "records_lag", "jolt_archive_written_total", "jolt_archive_lost_total");
    }

    @Test
    void prometheusFindsNothingToComplainAboutInTheMetrics() throws Exception {
        String identity = expected.get(0).get("identity").asText();
        http.send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/v1/identities/" + identity)).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/no/such/route")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        String scraped = http.send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(scraped).contains("kafka_producer_io_time_seconds_total", "jolt_entries_verified_total");
        assertThat(scraped).as("answers timed by route template, never by identity")
                .contains("jolt_http_requests_seconds_bucket{method=\"GET\",route=\"/v1/identities/{id}\",status=\"200\",le=")
                .contains("jolt_http_requests_seconds_count{method=\"GET\",route=\"unmatched\",status=\"404\"}")
                .doesNotContain("route=\"/v1/identities/" + identity);
        assertThat(Promtool.complaints(scraped)).as("promtool check metrics").isEmpty();
    }

    @Test
    void metricsShowEveryMetricTheOperationsDocumentLists() throws Exception {
        java.nio.file.Path operations = java.nio.file.Path.of("src", "site", "markdown", "operations.md");
        List<String> documented = Files.readAllLines(operations).stream().filter(l -> l.startsWith("| `jolt_"))
                .flatMap(row -> java.util.regex.Pattern.compile("jolt_[a-z_]+").matcher(row).results().map(m -> m.group()))
                .toList();
        assertThat(documented).hasSizeGreaterThanOrEqualTo(12);
        String scraped = http.send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String metric : documented) {
            assertThat(scraped).as(operations + " lists " + metric).containsPattern("(?m)^" + metric + "[{ ]");
        }
    }

    /** What a PromQL expression may call; a name followed by "(" that is not here is a mistake. */
    static final java.util.Set<String> PROMQL_FUNCTIONS = java.util.Set.of("sum", "avg", "min", "max", "count", "stddev",
            "stdvar", "topk", "bottomk", "quantile", "count_values", "group", "rate", "irate", "increase", "delta", "idelta",
            "deriv", "resets", "changes", "histogram_quantile", "avg_over_time", "max_over_time", "min_over_time",
            "sum_over_time", "count_over_time", "last_over_time", "quantile_over_time", "abs", "ceil", "floor", "round",
            "clamp", "clamp_min", "clamp_max", "absent", "absent_over_time", "label_replace", "label_join", "vector",
            "scalar", "time", "timestamp", "sort", "sort_desc", "predict_linear", "exp", "ln", "log2", "log10", "sqrt");
    /** Words of PromQL that are neither functions nor metrics. */
    static final java.util.Set<String> PROMQL_KEYWORDS = java.util.Set.of("and", "or", "unless", "bool", "offset", "by",
            "without", "on", "ignoring", "group_left", "group_right", "inf", "nan");

    /**
     * The metric names one PromQL expression reads: label matchers, range selectors and grouping
     * clauses stripped, then every identifier not called as a function and not a keyword.
     */
    static List<String> metricNamesIn(String expr) {
        String bare = expr.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^\\]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        List<String> names = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?<![A-Za-z0-9_:$.])([A-Za-z_:][A-Za-z0-9_:]*)\\s*(\\(?)").matcher(bare);
        while (m.find()) {
            String name = m.group(1);
            if (!m.group(2).isEmpty()) {
                assertThat(PROMQL_FUNCTIONS).as("a function called in " + expr).contains(name);
            } else if (!PROMQL_KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    static void collectQueries(JsonNode panels, List<String> titles, List<String> exprs) {
        for (JsonNode panel : panels) {
            titles.add(panel.path("title").asText());
            panel.path("targets").forEach(t -> exprs.add(t.path("expr").asText()));
            collectQueries(panel.path("panels"), titles, exprs);
        }
    }

    @Test
    void theOperatorsDashboardAsksOnlyForMetricsTheServiceServes() throws Exception {
        java.nio.file.Path dashboardFile = java.nio.file.Path.of("deploy", "grafana", "jolt-stream.json");
        JsonNode dashboard = JSON.readTree(dashboardFile.toFile());
        List<String> titles = new ArrayList<>();
        List<String> exprs = new ArrayList<>();
        collectQueries(dashboard.path("panels"), titles, exprs);
        assertThat(titles).as("the groups and panels operators look for").contains("Ingest & processing", "Lag",
                "Rejections", "Archive", "Restore", "HTTP", "Records processed /s", "Processing latency",
                "Consumer lag (records)", "Rejections by reason /s", "Archive losses", "Degraded archive writes /s",
                "Active tasks restoring", "Restore rate", "HTTP ingest records /s", "HTTP answers /s by status", "HTTP latency p99 by route",
                "JVM & process", "JVM heap used");
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(12).allMatch(e -> !e.isBlank());
        TreeSet<String> asked = new TreeSet<>();
        exprs.forEach(e -> asked.addAll(metricNamesIn(e)));
        dashboard.path("templating").path("list").forEach(v -> {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)\\s*,")
                    .matcher(v.path("definition").asText());
            if (m.find()) {
                asked.add(m.group(1));
            }
        });
        assertThat(asked).as("metric names in " + dashboardFile).hasSizeGreaterThanOrEqualTo(15)
                .contains("jolt_rejected_total", "kafka_consumer_fetch_manager_records_lag_max");
        String scraped = http.send(HttpRequest.newBuilder(URI.create(a.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        // a histogram's _bucket, _count and _sum are lines of their own in the exposition, so each
        // name the dashboard asks for must start a line as it is
        for (String metric : asked) {
            assertThat(scraped).as(dashboardFile + " asks for " + metric)
                    .containsPattern("(?m)^" + java.util.regex.Pattern.quote(metric) + "[{ ]");
        }
    }

    /**
     * Last: b comes back as an instance that has processed nothing itself, its stores to be
     * restored from the changelogs.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void anInstanceRestartedOnAnEmptyStateDirectoryIsNotReadyUntilRunningWithItsTasksRestored() throws Exception {
        // given: b stopped, and its state directory gone with it
        b.close();
        // when: it starts again on an empty one
        b = startInstance("api-b-again");
        // expect: live all along; not ready, saying why, until it is; then ready. It answers before
        // the group has even rebalanced, so the first answer is a 503.
        List<HttpResponse<String>> readiness = new ArrayList<>();
        await("the restarted instance ready").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20)).until(() -> {
            assertThat(get(b, "/health/live").status()).isEqualTo(200);
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(b.baseUrl() + "/health/ready")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            readiness.add(ready);
            return ready.statusCode() == 200;
        });
        assertThat(readiness.get(0).statusCode()).as("the first answer, before the rebalance").isEqualTo(503);
        for (HttpResponse<String> notReady : readiness.subList(0, readiness.size() - 1)) {
            JsonNode body = JSON.readTree(notReady.body());
            assertThat(notReady.statusCode()).isEqualTo(503);
            assertThat(notReady.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(body.get("status").asText()).isEqualTo("not_ready");
            assertThat(body.get("reasons")).as(notReady.body()).isNotEmpty()
                    .allMatch(r -> r.asText().startsWith("Kafka Streams is ") || r.asText().matches("restoring \\d+ partitions? of jolt-it-api-.*-changelog, .* left"));
        }
        assertThat(JSON.readTree(readiness.get(readiness.size() - 1).body()).get("status").asText()).isEqualTo("ready");
        awaitBothReady();
        for (JsonNode identity : expected) {
            String id = identity.get("identity").asText();
            assertThat(get(b, "/v1/identities/" + id)).as(id + " from the restored instance").isEqualTo(get(a, "/v1/identities/" + id));
        }
    }
}
