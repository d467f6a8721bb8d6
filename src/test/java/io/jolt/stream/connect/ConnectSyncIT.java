package io.jolt.stream.connect;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.jolt.stream.processor.IdentityQueries;
import io.jolt.stream.processor.ProcessorMetrics;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ForkedConnect;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two providers, each a service on its own real broker, and a real Kafka Connect worker (forked,
 * exactly-once source support) that loads the packaged plugin from its plugin.path. Provider A
 * holds the mixed scenarios and a demo workload and pages at 5 entries; provider B's input is fed
 * by the connector only. Given A's records, expect B's merged state to equal A's for every followed
 * identity, across a SIGKILL of the worker mid-pull, with each entry transferred once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectSyncIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONVERGE = Duration.ofSeconds(240);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private KafkaBroker brokerA;
    private KafkaBroker brokerB;
    private StreamHarness a;
    private StreamHarness b;
    private InMemorySchemaRegistry registry;
    private JoltNode providerA;
    private JoltNode providerB;
    private ForkedConnect worker;
    private TamperingProxy proxy;
    private final TestIdentity carol = TestIdentity.named("carol-connect");
    private TestIdentity.Device carolPhone;
    private List<String> followed;
    private String tampered;
    private String besideTampered;

    @BeforeAll
    void twoProvidersAndAWorker() throws Exception {
        brokerA = keep(KafkaBroker.start());
        brokerB = keep(KafkaBroker.start());
        a = new StreamHarness(brokerA);
        b = new StreamHarness(brokerB);
        registry = TopicSchemas.seededRegistry();
        providerA = keep(JoltNode.start(a.config("jolt-connect-a", StreamHarness.tempStateDir("connect-a"), 2).with(JoltNode.HTTP_PORT, "0")
                .with(JoltConfig.SYNC_MAX_ENTRIES, "5"), registry).awaitRunning(Duration.ofSeconds(60)));
        providerB = keep(JoltNode.start(b.config("jolt-connect-b", StreamHarness.tempStateDir("connect-b"), 2).with(JoltNode.HTTP_PORT, "0"), registry)
                .awaitRunning(Duration.ofSeconds(60)));
        Workload.Generated workload = Workload.generate(new Workload.Shape(40, 3, 8, 16), n -> { });
        List<Object> records = new ArrayList<>(workload.authority());
        records.addAll(workload.entries());
        records.add(carol.authorize("phone"));
        carolPhone = carol.device("phone");
        for (int i = 0; i < 6; i++) {
            records.add(carolPhone.set("/status", "s" + i));
        }
        List<VectorRecords> input = new ArrayList<>(VectorRecords.of("mixed", registry));
        input.addAll(VectorRecords.ofRecords(records, registry));
        a.produce(input);
        a.awaitProcessed("jolt-connect-a", Duration.ofSeconds(120));

        Set<String> identities = new TreeSet<>();
        input.stream().filter(r -> r.record() instanceof AuthorityRecord).forEach(r -> identities.add(r.key()));
        List<String> workloadIds = workload.authority().stream().map(r -> r.body().identity()).distinct().sorted().toList();
        tampered = workloadIds.get(0);
        besideTampered = workloadIds.get(1);
        followed = identities.stream().filter(i -> !i.equals(tampered) && !i.equals(besideTampered)).toList();
        proxy = keep(new TamperingProxy(providerA.baseUrl(), tampered));
        worker = keep(ForkedConnect.start(brokerB.bootstrapServers(), Files.createTempDirectory(Path.of("target").toAbsolutePath(), "connect-worker"),
                unzippedPlugin()));
    }

    /** What a user does with the release: unzip the plugin archive into a directory on plugin.path. */
    private static Path unzippedPlugin() throws Exception {
        Path zip = Path.of(ForkedConnect.packagedPlugin() + ".zip");
        Path into = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "plugins");
        Process unzip = new ProcessBuilder("jar", "xf", zip.toString()).directory(into.toFile()).inheritIO().start();
        assertThat(unzip.waitFor()).isZero();
        assertThat(into.resolve("jolt-sync-connector/manifest.json")).exists();
        return into;
    }

    @AfterAll
    void stop() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                System.err.println("[connect] closing: " + e);
            }
        }
    }

    @Test
    @Order(1)
    void thePackagedPluginLoadsAndBadSettingsAreNamed() throws Exception {
        JsonNode plugins = worker.get("/connector-plugins");
        assertThat(plugins.findValuesAsText("class")).contains(JoltSyncSourceConnector.class.getName());
        Map<String, String> bad = config(List.of("ftp://provider.example"), Map.of(SyncSourceConfig.IDENTITIES, "jolt1notanidentity",
                "name", "jolt-sync-validated"));
        JsonNode validated = worker.put("/connector-plugins/JoltSyncSourceConnector/config/validate", bad);
        Map<String, String> errors = new LinkedHashMap<>();
        validated.path("configs").forEach(c -> c.path("value").path("errors").forEach(e -> errors.put(c.path("value").path("name").asText(), e.asText())));
        assertThat(errors).containsOnlyKeys(SyncSourceConfig.PROVIDERS, SyncSourceConfig.IDENTITIES);
        assertThat(errors.get(SyncSourceConfig.PROVIDERS)).contains("ftp://provider.example", "not an http or https URL");
        assertThat(errors.get(SyncSourceConfig.IDENTITIES)).contains("jolt1notanidentity", "not an identity");
    }

    @Test
    @Order(2)
    void bConvergesToAAcrossAWorkerKilledMidPullAndNoEntryIsTransferredTwice() throws Exception {
        Path file = Files.createTempFile(Path.of("target").toAbsolutePath(), "followed", ".txt");
        Files.write(file, followed);
        // Slowed down on purpose (one page of 5 entries per identity per turn, 40 records a poll) so that the kill lands mid-pull.
        worker.put("/connectors/jolt-sync/config", config(List.of(providerA.baseUrl()), Map.of(SyncSourceConfig.IDENTITIES_FILE, file.toString(),
                "tasks.max", "2", SyncSourceConfig.MAX_PAGES, "1", SyncSourceConfig.MAX_RECORDS, "40", SyncSourceConfig.POLL_INTERVAL_MS, "300")));
        long beforeKill = awaitEntriesInB(n -> n >= 300);
        worker.kill();
        long atKill = entriesInB().size();
        worker.restart();
        awaitConverged(followed);
        List<byte[]> transferred = entriesInB();
        Set<String> distinct = new HashSet<>();
        transferred.forEach(v -> distinct.add(java.util.HexFormat.of().formatHex(v)));
        System.out.printf("[connect] %d identities followed; entries in B: %d when the kill was ordered, %d committed at the kill, %d at the end, "
                + "%d distinct%n", followed.size(), beforeKill, atKill, transferred.size(), distinct.size());
        assertThat(atKill).as("killed mid-pull").isLessThan(distinct.size());
        assertThat(transferred).as("each entry transferred once: the restart resumed from the committed cursors").hasSize(distinct.size());
    }

    @Test
    @Order(3)
    void newEntriesOnAAreAllThatIsTransferredNext() throws Exception {
        int before = entriesInB().size();
        List<Object> more = new ArrayList<>();
        for (int i = 6; i < 10; i++) {
            more.add(carolPhone.set("/status", "s" + i));
        }
        a.produce(VectorRecords.ofRecords(more, registry));
        a.awaitProcessed("jolt-connect-a", Duration.ofSeconds(60));
        awaitConverged(List.of(carol.id()));
        assertThat(entriesInB().size() - before).as("a delta: the 4 new entries and nothing else").isEqualTo(4);
        assertThat(duplicatesCountedByB()).as("exactly once: B never received an entry twice").isZero();

        // What a worker without exactly-once support repeats after a crash: harmless, and counted.
        b.produce(VectorRecords.ofRecords(more, registry));
        b.awaitProcessed("jolt-connect-b", Duration.ofSeconds(60));
        assertThat(duplicatesCountedByB()).isEqualTo(4);
        assertThat(same(carol.id())).isTrue();
    }

    private long duplicatesCountedByB() {
        return (long) providerB.service().streams().metrics().entrySet().stream()
                .filter(m -> m.getKey().group().equals(ProcessorMetrics.GROUP) && m.getKey().name().equals(ProcessorMetrics.DUPLICATES))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue()).sum();
    }

    @Test
    @Order(4)
    void aTamperedPageIsRejectedWholeAndReportedWhileTheOtherIdentityGoesOn() throws Exception {
        worker.put("/connectors/jolt-sync-proxied/config", config(List.of(proxy.url()),
                Map.of(SyncSourceConfig.IDENTITIES, tampered + "," + besideTampered, SyncSourceConfig.POLL_INTERVAL_MS, "300")));
        awaitConverged(List.of(besideTampered));
        await("a bad_signature rejection counted").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> worker.pluginMetric("jolt-sync-proxied", SyncTaskMetrics.REJECTIONS, "bad_signature") != 0);
        assertThat(proxy.tamperedResponses()).isPositive();
        assertThat(Files.readString(worker.log())).contains("rejected the log of device " + proxy.tamperedDevice() + " supplied for " + tampered,
                "bad_signature");
        MergedState inB = new IdentityQueries(providerB.service().streams(), SignatureCheck.DEFINITION).state(tampered).orElseThrow();
        assertThat(inB.deviceLogs()).as("the tampered device's log was taken whole or not at all")
                .noneMatch(d -> d.authority().deviceId().equals(proxy.tamperedDevice()) && !d.eligible().isEmpty());
        assertThat(worker.pluginMetric("jolt-sync-proxied", SyncTaskMetrics.ENTRIES, null)).isPositive();
        assertThat(worker.pluginMetric("jolt-sync-proxied", SyncTaskMetrics.FOLLOWED, null)).isEqualTo(2);
    }

    private Map<String, String> config(List<String> providers, Map<String, String> more) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", JoltSyncSourceConnector.class.getName());
        c.put("tasks.max", "1");
        c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        c.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        c.put(SyncSourceConfig.PROVIDERS, String.join(",", providers));
        c.putAll(more);
        return c;
    }

    private List<byte[]> entriesInB() {
        List<byte[]> out = new ArrayList<>();
        b.readAll(Topics.ENTRIES, new StringDeserializer(), new ByteArrayDeserializer()).forEach(r -> out.add(r.value()));
        return out;
    }

    private long awaitEntriesInB(Predicate<Long> enough) throws Exception {
        AtomicLong reached = new AtomicLong();
        try {
            await("entries reached B").atMost(CONVERGE).pollInterval(Duration.ofMillis(200)).until(() -> {
                reached.set(entriesInB().size());
                return enough.test(reached.get());
            });
        } catch (ConditionTimeoutException e) {
            // Asked only now: right after a connector is created, its status is not there yet (404).
            throw new AssertionError("entries reached B: " + reached.get() + "; the connector: " + worker.get("/connectors/jolt-sync/status")
                    + ", its offsets: " + worker.get("/connectors/jolt-sync/offsets"), e);
        }
        return reached.get();
    }

    /**
     * Waits until B serves, for each identity, the merged state A serves: singletons, appends, the devices of the authority chain
     * and the level. Not the rows of devices no authority record admits (status "unknown"): A holds entries of such devices as
     * received, and PROTOCOL §8 syncs only authorized devices' eligible branches, so they never travel.
     */
    private void awaitConverged(List<String> identities) throws Exception {
        List<String> behind = new ArrayList<>(identities);
        try {
            await("B equals A for every followed identity").atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).until(() -> {
                behind.removeIf(this::same);
                return behind.isEmpty();
            });
        } catch (ConditionTimeoutException e) {
            StringBuilder why = new StringBuilder("B equals A for every followed identity; behind:");
            for (String i : behind) {
                why.append("\n").append(i).append("\n  A: ").append(new IdentityQueries(providerA.service().streams(), SignatureCheck.DEFINITION).state(i).map(ConnectSyncIT::synced))
                        .append("\n  B: ").append(new IdentityQueries(providerB.service().streams(), SignatureCheck.DEFINITION).state(i).map(ConnectSyncIT::synced));
            }
            throw new AssertionError(why.toString(), e);
        }
    }

    private boolean same(String identity) {
        var inA = new IdentityQueries(providerA.service().streams(), SignatureCheck.DEFINITION).state(identity);
        var inB = new IdentityQueries(providerB.service().streams(), SignatureCheck.DEFINITION).state(identity);
        return inA.isPresent() && inB.isPresent() && synced(inA.get()).equals(synced(inB.get()));
    }

    private static String synced(MergedState state) {
        try {
            JsonNode json = JSON.readTree(MergedStateJson.write(state));
            List<JsonNode> devices = new ArrayList<>();
            json.get("devices").forEach(d -> {
                if (!d.path("status").asText().equals("unknown")) {
                    devices.add(d);
                }
            });
            return json.get("singletons").toString() + json.get("appends") + devices + json.get("required_operation_level");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    /** A provider's sync endpoint behind a proxy that flips the last byte of the answers about one identity (a signature's). */
    static final class TamperingProxy implements AutoCloseable {
        private final HttpServer server;
        private final String target;
        private final String identity;
        private final HttpClient http = HttpClient.newHttpClient();
        private volatile int tampered;
        private volatile String tamperedDevice;

        TamperingProxy(String target, String identity) throws Exception {
            this.target = target;
            this.identity = identity;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    byte[] body = exchange.getRequestBody().readAllBytes();
                    HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                            .header("Content-Type", SyncRequest.MEDIA_TYPE).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    byte[] out = answer.body();
                    if (answer.statusCode() == 200 && SyncRequest.decode(body).identity().equals(identity)) {
                        var response = io.jolt.stream.protocol.sync.SyncResponse.decode(out);
                        if (!response.deviceLogs().isEmpty()) {
                            var logs = response.deviceLogs();
                            tamperedDevice = logs.get(logs.size() - 1).get(0).deviceId();
                            out = out.clone();
                            out[out.length - 1] ^= 1; // the last entry's signature
                            tampered++;
                        }
                    }
                    exchange.sendResponseHeaders(answer.statusCode(), out.length);
                    exchange.getResponseBody().write(out);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        int tamperedResponses() {
            return tampered;
        }

        String tamperedDevice() {
            return tamperedDevice;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
