package io.jolt.stream.archive.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.archive.replay.ArchiveJson;
import io.jolt.stream.archive.replay.ArchiveReplay;
import io.jolt.stream.archive.replay.ArchivedHistory;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.CompactionCause;
import io.jolt.stream.cli.JoltCommand;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.Promtool;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The archive service on a real broker, over an archive the live service wrote from every
 * vector scenario in reverse (held bound 3, superseded history kept for no time: the live side
 * forgets) and the demo workload, with some operations appended twice (the bolt is
 * at-least-once). Its answers equal a full-scan replay's, it still has what the live side forgot,
 * a restart resumes its index (not ready until it has), and an index that dies fails liveness.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArchiveServiceIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String LIVE = "jolt-it-archive-live";
    static final HttpClient HTTP = ContractClient.of(OpenApiContract.ARCHIVE);

    StreamHarness harness;
    InMemorySchemaRegistry registry;
    String bootstrap;
    Path indexDir;
    ArchiveService archive;
    List<ConsumerRecord<String, byte[]>> archived;
    List<Compaction> compactions;

    @BeforeAll
    void anArchiveTheLiveServiceWrote(KafkaBroker broker) throws Exception {
        harness = new StreamHarness(broker);
        harness.resetTopics();
        bootstrap = broker.bootstrapServers();
        registry = TopicSchemas.seededRegistry();
        List<VectorRecords> records = new ArrayList<>();
        for (String kind : Vectors.kinds()) {
            records.addAll(VectorRecords.of(kind, registry));
        }
        Collections.reverse(records);
        Workload.Generated workload = Workload.generate(new Workload.Shape(40, 3, 8, 31), n -> { });
        List<Object> demo = new ArrayList<>(workload.authority());
        demo.addAll(workload.entries());
        records.addAll(VectorRecords.ofRecords(demo, registry));
        JoltConfig config = harness.config(LIVE, StreamHarness.tempStateDir("archive-live"), 4)
                .with(JoltConfig.HELD_MAX, "3")
                .with(JoltConfig.SUPERSEDED_RETENTION_MS, "0")
                .with(JoltConfig.SWEEP_INTERVAL_MS, "500");
        try (var service = harness.start(config, registry)) {
            harness.produce(records);
            harness.awaitProcessed(LIVE, Duration.ofSeconds(120));
            Thread.sleep(1500); // a sweep or two: superseded history forgotten on the live side
            service.bolt().flush();
        }
        archived = harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer());
        appendAgain(archived.subList(0, 25));
        archived = harness.readAll(Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer());
        compactions = harness.readAll(Topics.COMPACTIONS, new StringDeserializer(),
                new ConfluentAvroSerde<Compaction>(registry, Compaction.getClassSchema())).stream().map(ConsumerRecord::value).toList();
        indexDir = StreamHarness.tempStateDir("archive-index");
        archive = startArchive();
        assertThat(archive.counts().indexed()).isEqualTo(archived.size());
    }

    @AfterAll
    void stop() {
        if (archive != null) {
            archive.close();
        }
    }

    @Test
    @Order(1)
    void historyStateAndExportEqualAFullScanReplay() throws Exception {
        List<ArchiveReplay.Archived> fullScan = new ArchiveReplay(bootstrap, registry).read(null, null, null);
        int repeated = 0;
        for (String identity : identities()) {
            ArchivedHistory full = ArchivedHistory.of(identity, fullScan, null);
            repeated += full.duplicatesRemoved();
            assertThat(get("/v1/archive/identities/" + identity + "/history")).as(identity).isEqualTo(tree(ArchiveJson.history(full, null)));
            String path = full.operations().get(0).entry().body().operation().path();
            assertThat(get("/v1/archive/identities/" + identity + "/history?path=" + path)).as(identity + " " + path)
                    .isEqualTo(tree(ArchiveJson.history(ArchivedHistory.of(identity, fullScan, path), path)));
            for (ArchiveReplay.Archived cut : cuts(full)) {
                ArchivedHistory byOffset = ArchivedHistory.of(identity, fullScan.stream().filter(a -> a.offset() <= cut.offset()).toList(), null);
                assertThat(get("/v1/archive/identities/" + identity + "/state?as_of_offset=" + cut.offset())).as(identity + " as of offset " + cut.offset())
                        .isEqualTo(tree(ArchiveJson.state(byOffset, new ArchiveJson.AsOf(cut.offset(), null))));
                ArchivedHistory byTime = ArchivedHistory.of(identity, fullScan.stream().filter(a -> a.timestamp() <= cut.timestamp()).toList(), null);
                assertThat(get("/v1/archive/identities/" + identity + "/state?as_of_time=" + cut.timestamp())).as(identity + " as of time " + cut.timestamp())
                        .isEqualTo(tree(ArchiveJson.state(byTime, new ArchiveJson.AsOf(null, cut.timestamp()))));
            }
            HttpResponse<String> export = send("/v1/archive/export?identity=" + identity);
            assertThat(export.body()).isEqualTo(full.operations().stream().map(a -> RecordJson.write(a.entry()) + "\n").collect(Collectors.joining()));
            assertThat(export.headers().firstValue("Jolt-Duplicates-Removed")).hasValue(String.valueOf(full.duplicatesRemoved()));
        }
        assertThat(repeated).as("the operations appended twice are each shown once, and counted").isEqualTo(25);
    }

    @Test
    @Order(2)
    void jolt_replay_asksTheServiceAndReadsTheArchiveAlikeAndDoesNotScanTheWholeArchive() {
        for (String identity : identities().stream().limit(6).toList()) {
            for (String mode : List.of("history", "state", "export")) {
                String viaService = replay("--archive-service", archive.baseUrl(), "--identity", identity, "--mode", mode);
                String viaPartition = replay("--bootstrap", bootstrap, "--identity", identity, "--mode", mode);
                assertThat(viaService).as(mode + " " + identity).isEqualTo(viaPartition).isNotBlank();
            }
        }
        ArchiveReplay replay = new ArchiveReplay(bootstrap, registry);
        String identity = identities().first();
        replay.history(identity, null, null, null, false);
        assertThat(replay.recordsRead()).as("one partition of four").isLessThan(archived.size());
        long before = replay.recordsRead();
        long lastTime = archived.stream().filter(r -> r.key().equals(identity)).mapToLong(ConsumerRecord::timestamp).min().orElseThrow();
        replay.history(identity, null, null, lastTime, false);
        assertThat(replay.recordsRead() - before).as("a time bound ends the read at the time index's offset")
                .isLessThan(before);
    }

    @Test
    @Order(3)
    void whatTheLiveSideForgotIsStillInTheArchiveServicesHistory() throws Exception {
        List<Compaction> forgottenAfterEligible = compactions.stream()
                .filter(c -> c.getCause() == CompactionCause.FORK_SWITCH || c.getCause() == CompactionCause.SUPERSEDED_RETENTION).toList();
        assertThat(forgottenAfterEligible).extracting(Compaction::getCause).as("the live side forgot eligible entries")
                .contains(CompactionCause.FORK_SWITCH, CompactionCause.SUPERSEDED_RETENTION);
        for (Compaction c : forgottenAfterEligible) {
            Set<String> hashes = new TreeSet<>();
            get("/v1/archive/identities/" + c.getIdentity() + "/history").get("operations").forEach(op -> hashes.add(op.get("entry_hash").asText()));
            assertThat(hashes).as("%s forgot %s/%s#%s", c.getCause(), c.getIdentity(), c.getDeviceId(), c.getDeviceSequence())
                    .contains(Hex.encode(c.getEntryHash().bytes()));
        }
    }

    @Test
    @Order(4)
    void errorsAreTypedAndTheServiceIsReadOnly() throws Exception {
        assertThat(send("/v1/archive/identities/nobody/history").statusCode()).isEqualTo(404);
        assertThat(tree(send("/v1/archive/identities/nobody/history").body()).at("/error/code").asText()).isEqualTo("not_archived");
        String identity = identities().first();
        assertThat(send("/v1/archive/identities/" + identity + "/state?as_of_offset=-1").statusCode()).isEqualTo(400);
        assertThat(tree(send("/v1/archive/identities/" + identity + "/state?as_of_time=yesterday").body()).at("/error/code").asText())
                .isEqualTo("bad_parameter");
        assertThat(send("/v1/archive/export").statusCode()).isEqualTo(400);
        HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(archive.baseUrl() + "/v1/records"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).as("no route takes a record").isEqualTo(404);
    }

    @Test
    @Order(4)
    void theOpenApiDocumentDescribesEveryRouteAndNothingElse() throws Exception {
        assertThat(new TreeSet<>(archive.routes())).as("routes registered = operations of " + OpenApiContract.ARCHIVE.resource())
                .isEqualTo(OpenApiContract.ARCHIVE.operations());
        HttpResponse<String> served = send("/openapi.json");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(served.body())).isEqualTo(OpenApiContract.ARCHIVE.document());
    }

    @Test
    @Order(4)
    void prometheusFindsNothingToComplainAboutInTheMetrics() throws Exception {
        HttpResponse<String> scraped = send("/metrics");
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.body()).contains("kafka_stream");
        assertThat(Promtool.complaints(scraped.body())).as("promtool check metrics").isEmpty();
    }

    @Test
    @Order(4)
    void theProbesOfARunningCaughtUpIndexAreLiveAndReady() throws Exception {
        assertThat(get("/health/live")).isEqualTo(tree("{\"status\":\"live\",\"streams_state\":\"RUNNING\",\"reasons\":[]}"));
        assertThat(get("/health/ready")).isEqualTo(tree("{\"status\":\"ready\",\"streams_state\":\"RUNNING\",\"reasons\":[]}"));
    }

    @Test
    @Order(5)
    void aRestartResumesTheIndexAndIndexesNothingTwice() throws Exception {
        // given: the index stopped, and 40 records appended meanwhile
        archive.close();
        List<ConsumerRecord<String, byte[]>> more = archived.subList(archived.size() - 40, archived.size());
        appendAgain(more);
        // when: it starts again, ready only with no record left to index
        archive = ArchiveService.start(settings(indexDir, 0), registry);
        // expect: live all along; not ready, saying why, until it is (it answers before it has even
        // joined its group, so the first answer is a 503); then ready, RUNNING and caught up
        List<HttpResponse<String>> readiness = new ArrayList<>();
        Waiting.await("the restarted index ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
            assertThat(send("/health/live").statusCode()).isEqualTo(200);
            HttpResponse<String> ready = send("/health/ready");
            readiness.add(ready);
            return ready.statusCode() == 200;
        });
        assertThat(readiness.get(0).statusCode()).as("the first answer, before the index joined its group").isEqualTo(503);
        for (HttpResponse<String> notReady : readiness.subList(0, readiness.size() - 1)) {
            assertThat(notReady.statusCode()).isEqualTo(503);
            assertThat(notReady.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(tree(notReady.body()).get("reasons")).as(notReady.body()).isNotEmpty().allMatch(r -> r.asText().startsWith("Kafka Streams is ")
                    || r.asText().startsWith("restoring ") || r.asText().matches("the index is [\\d,]+ records? behind the archive on the .*"));
        }
        archive.awaitRunning(Duration.ofSeconds(60)).awaitCaughtUp(Duration.ofSeconds(60));
        assertThat(archive.counts().indexed()).as("only what was appended while it was down").isEqualTo(40);
        JsonNode status = get("/v1/archive/status");
        assertThat(status.get("caught_up").asBoolean()).isTrue();
        assertThat(status.get("indexed_up_to").asLong()).isEqualTo(archived.size() + 40);
        String identity = more.get(0).key();
        assertThat(get("/v1/archive/identities/" + identity + "/history"))
                .isEqualTo(tree(ArchiveJson.history(new ArchiveReplay(bootstrap, registry).history(identity, null, null, null, true), null)));
    }

    @Test
    @Order(6)
    void anIndexThatDiedFailsLivenessAndReadiness() throws Exception {
        // given: an index over an archive topic that does not exist (Kafka Streams stops on a missing source topic)
        ArchiveService.Settings settings = new ArchiveService.Settings(bootstrap, "jolt.it.no-such-archive", "jolt-it-archive-dead",
                StreamHarness.tempStateDir("archive-dead"), "127.0.0.1", 0, new Properties(), ArchiveService.Settings.DEFAULT_READY_MAX_LAG);
        try (ArchiveService dead = ArchiveService.start(settings, registry)) {
            // when: it has given up
            URI live = URI.create(dead.baseUrl() + "/health/live");
            Waiting.await("the index given up").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> HTTP.send(HttpRequest.newBuilder(live).GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 503);
            // expect: not live, nor ready, and each says so
            JsonNode notLive = tree(HTTP.send(HttpRequest.newBuilder(live).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
            assertThat(notLive.get("status").asText()).isEqualTo("not_live");
            assertThat(notLive.get("streams_state").asText()).isIn("PENDING_ERROR", "ERROR");
            assertThat(notLive.get("reasons").get(0).asText()).contains("failed");
            HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create(dead.baseUrl() + "/health/ready")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(tree(ready.body()).get("reasons").get(0).asText()).startsWith("Kafka Streams is ").contains("ERROR");
        }
    }

    private ArchiveService startArchive() throws Exception {
        return ArchiveService.start(settings(indexDir, ArchiveService.Settings.DEFAULT_READY_MAX_LAG), registry)
                .awaitRunning(Duration.ofSeconds(60)).awaitCaughtUp(Duration.ofSeconds(60));
    }

    private ArchiveService.Settings settings(Path stateDir, long readyMaxLag) {
        return new ArchiveService.Settings(bootstrap, Topics.ARCHIVE, "jolt-it-archive-service", stateDir, "127.0.0.1", 0, new Properties(), readyMaxLag);
    }

    /** Appends copies of archive records: what a task that re-processes after a crash may do. */
    private void appendAgain(List<ConsumerRecord<String, byte[]>> records) throws Exception {
        List<ProducerRecord<String, byte[]>> copies = new ArrayList<>();
        records.forEach(r -> copies.add(new ProducerRecord<>(Topics.ARCHIVE, r.key(), r.value())));
        harness.produceRaw(copies);
    }

    private TreeSet<String> identities() {
        return archived.stream().map(ConsumerRecord::key).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The identity's first, middle and last operations: as-of cuts at each. */
    private static List<ArchiveReplay.Archived> cuts(ArchivedHistory history) {
        List<ArchiveReplay.Archived> ops = history.operations();
        return List.of(ops.get(0), ops.get(ops.size() / 2), ops.get(ops.size() - 1));
    }

    private String replay(String... args) {
        StringWriter out = new StringWriter();
        var cli = JoltCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(List.of(args));
        assertThat(cli.execute(all.toArray(String[]::new))).as(String.join(" ", all)).isZero();
        return out.toString();
    }

    private HttpResponse<String> send(String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(archive.baseUrl() + pathAndQuery)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String pathAndQuery) throws Exception {
        HttpResponse<String> answer = send(pathAndQuery);
        assertThat(answer.statusCode()).as(pathAndQuery + ": " + answer.body()).isEqualTo(200);
        return tree(answer.body());
    }

    private static JsonNode tree(String json) throws Exception {
        return JSON.readTree(json);
    }
}
