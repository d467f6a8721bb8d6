package io.jolt.stream.cli;

import io.jolt.stream.kafka.TopicSchemas;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.api.JoltNode;
import io.jolt.stream.avro.ArchiveRecord;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.ConflictKind;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.kafka.IdentityQueries;
import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.serde.ConfluentAvroSerde;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"The whole product on one machine: a real local Kafka broker (deploy/start-kafka.sh) unless --bootstrap,",
            "the stream processor and its HTTP API, and a generated workload (concurrent writes, tombstones and restores,",
            "a revocation, a fork, bad records). Shows progress, prints a summary and example curl commands,",
            "then serves until Ctrl-C and stops everything it started."})
final class DemoCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--identities", defaultValue = "2000", description = "Identities to generate (default ${DEFAULT-VALUE}).")
    int identities;

    @Option(names = "--devices", defaultValue = "3", description = "Devices per identity (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(names = "--entries-per-device", defaultValue = "8", description = "Entries each device writes (default ${DEFAULT-VALUE}).")
    int entriesPerDevice;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Use this Kafka cluster instead of starting a local broker.")
    String bootstrap;

    @Option(names = "--http-port", defaultValue = "8080", description = "HTTP API port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int httpPort;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of every topic (default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--exit-after-summary", description = "Stop everything after the summary instead of serving (for scripts).")
    boolean exitAfterSummary;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Also write the summary as JSON to FILE.")
    Path summaryJson;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LocalBroker broker = null;
        JoltNode node = null;
        CountDownLatch stop = new CountDownLatch(1);
        boolean hookRegistered = false;
        java.util.List<AutoCloseable> closeables = new java.util.ArrayList<>();
        try {
            if (bootstrap == null) {
                err.println("demo: starting a real Kafka broker (deploy/start-kafka.sh) ...");
                broker = LocalBroker.start("demo");
                bootstrap = broker.bootstrapServers();
            }
            err.println("demo: broker at " + bootstrap);

            long t0 = System.nanoTime();
            Workload.Generated workload = LocalRuns.generate(new Workload.Shape(identities, devices, entriesPerDevice, 7), err);
            double generateSeconds = (System.nanoTime() - t0) / 1e9;

            String applicationId = "jolt-demo-" + System.currentTimeMillis();
            Path stateDir = Files.createDirectories(LocalBroker.home().resolve("target/demo-state").resolve(applicationId));
            JoltConfig config = LocalRuns.config(bootstrap, applicationId, stateDir, partitions, null)
                    .with(JoltNode.HTTP_PORT, String.valueOf(httpPort));
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            node = JoltNode.start(config, registry).awaitRunning(Duration.ofSeconds(120));
            JoltNode started = node;
            LocalBroker startedBroker = broker;
            Thread hook = new Thread(() -> {
                started.close();
                if (startedBroker != null) {
                    startedBroker.close();
                }
                stop.countDown();
            }, "jolt-demo-shutdown");
            if (!exitAfterSummary) {
                Runtime.getRuntime().addShutdownHook(hook);
                hookRegistered = true;
            }
            err.println("demo: service RUNNING, HTTP API on " + node.baseUrl());

            TopicReader reader = new TopicReader(bootstrap);
            closeables.add(reader);
            TopicReader.Progress before = reader.progress(applicationId);
            long t1 = System.nanoTime();
            long records = LocalRuns.ingest(node.ingest(), workload);
            LocalRuns.awaitProcessed(reader, applicationId, before.processed(), records, "ingesting", err);
            double ingestSeconds = (System.nanoTime() - t1) / 1e9;

            node.service().bolt().flush();
            ObjectNode summary = summarize(reader, registry, workload, ingestSeconds, generateSeconds, records);
            finalRejections(node, workload, summary);
            reader.close(); // not needed while serving; stopped before the broker goes away
            closeables.remove(reader);
            String sample = sampleResolve(node, workload, summary);
            printSummary(out, summary, sample, node.baseUrl(), workload);
            if (summaryJson != null) {
                Files.writeString(summaryJson, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
            }
            if (exitAfterSummary) {
                return 0;
            }
            out.println();
            out.println("Serving until Ctrl-C ...");
            out.flush();
            stop.await();
            return 0;
        } finally {
            // Once the shutdown hook is registered it stops everything; before that (or with
            // --exit-after-summary) this method does.
            for (AutoCloseable c : closeables) {
                c.close();
            }
            if (!hookRegistered) {
                if (node != null) {
                    node.close();
                }
                if (broker != null) {
                    broker.close();
                }
            }
        }
    }

    private ObjectNode summarize(TopicReader reader, InMemorySchemaRegistry registry, Workload.Generated workload,
            double ingestSeconds, double generateSeconds, long records) {
        Map<String, StateChange> latest = new HashMap<>();
        reader.readAll(Topics.STATE, new ByteArrayDeserializer(), new ConfluentAvroSerde<StateChange>(registry, StateChange.getClassSchema()),
                (k, v) -> latest.put(v.getIdentity() + "\u0000" + v.getPath(), v));
        long present = latest.values().stream().filter(v -> v.getState() == PathState.PRESENT).count();
        long tombstoned = latest.values().stream().filter(v -> v.getState() == PathState.TOMBSTONED).count();
        long withConflicts = latest.values().stream().filter(v -> v.getConflictCount() > 0).count();
        Map<String, Long> conflictEvents = new TreeMap<>();
        reader.readAll(Topics.CONFLICTS, new StringDeserializer(), new ConfluentAvroSerde<ConflictEvent>(registry, ConflictEvent.getClassSchema()),
                (k, v) -> conflictEvents.merge(v.getKind() == ConflictKind.EQUIVOCATION ? "equivocations" : "concurrent_head_events", 1L, Long::sum));
        Map<String, Long> rejected = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        reader.readAll(Topics.REJECTED, new StringDeserializer(), new ConfluentAvroSerde<RejectedRecord>(registry, RejectedRecord.getClassSchema()),
                (k, v) -> {
                    String reason = v.getReason().name().toLowerCase();
                    if (seen.add(v.getIdentity() + reason + v.getEntryHash() + v.getSourceOffset())) {
                        rejected.merge(reason, 1L, Long::sum);
                    }
                });
        long archived = reader.readAll(Topics.ARCHIVE, new StringDeserializer(),
                new ConfluentAvroSerde<ArchiveRecord>(registry, ArchiveRecord.getClassSchema()), (k, v) -> {});
        Map<String, Long> forgotten = new TreeMap<>();
        reader.readAll(Topics.COMPACTIONS, new StringDeserializer(),
                new ConfluentAvroSerde<io.jolt.stream.avro.Compaction>(registry, io.jolt.stream.avro.Compaction.getClassSchema()),
                (k, v) -> forgotten.merge(v.getCause().name().toLowerCase(), 1L, Long::sum));

        ObjectNode s = JSON.createObjectNode();
        ObjectNode generated = s.putObject("generated");
        workload.counts().forEach(generated::put);
        s.put("generate_seconds", round(generateSeconds));
        s.put("ingested_records", records);
        s.put("ingest_seconds", round(ingestSeconds));
        s.put("records_per_second", Math.round(records / Math.max(ingestSeconds, 1e-3)));
        s.put("entries_per_second", Math.round(workload.entries().size() / Math.max(ingestSeconds, 1e-3)));
        ObjectNode state = s.putObject("state");
        state.put("singleton_paths", present + tombstoned).put("present", present).put("tombstoned", tombstoned)
                .put("paths_with_conflicts", withConflicts).put("archived_operations", archived);
        ObjectNode conflicts = s.putObject("conflicts");
        conflictEvents.forEach(conflicts::put);
        ObjectNode rej = s.putObject("rejected_events");
        rejected.forEach(rej::put);
        ObjectNode compactions = s.putObject("compactions");
        forgotten.forEach(compactions::put);
        return s;
    }

    /**
     * Rejections in the final state of every identity (the rejected topic is a stream of verdicts
     * as records arrived: an entry seen before its Authorize is unknown_device there, then admitted).
     */
    private static void finalRejections(JoltNode node, Workload.Generated workload, ObjectNode summary) {
        IdentityQueries queries = new IdentityQueries(node.service().streams());
        Map<String, Long> reasons = new TreeMap<>();
        workload.authority().stream().map(r -> r.body().identity()).distinct().forEach(identity ->
                queries.state(identity).ifPresent(state -> state.rejected().forEach(row -> reasons.merge(row.reason().wireName(), 1L, Long::sum))));
        ObjectNode out = summary.putObject("rejected_final");
        reasons.forEach(out::put);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private String sampleResolve(JoltNode node, Workload.Generated workload, ObjectNode summary) throws Exception {
        String identity = workload.authority().get(0).body().identity();
        String path = "/profile";
        IdentityQueries queries = new IdentityQueries(node.service().streams());
        for (String candidate : new String[] {"/profile", "/settings/theme", "/notes/1", "/notes/2"}) {
            if (queries.resolve(identity, candidate) instanceof io.jolt.stream.protocol.Resolution.Present) {
                path = candidate;
                break;
            }
        }
        summary.put("sample_path", path);
        String url = node.baseUrl() + "/v1/identities/" + identity + "/resolve?path=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        summary.put("sample_identity", identity);
        summary.put("sample_resolve_status", response.statusCode());
        return "GET " + url + "\n    -> " + response.statusCode() + " " + response.body();
    }

    private void printSummary(PrintWriter out, ObjectNode s, String sample, String base, Workload.Generated workload) {
        var g = s.get("generated");
        out.println();
        out.println("jolt demo: summary");
        out.printf("  workload   %,d identities x %d devices: %,d entries, %,d authority records (signed in %.1f s)%n",
                g.get("identities").asLong(), devices, g.get("entries").asLong(), g.get("authority_records").asLong(), s.get("generate_seconds").asDouble());
        out.printf("  ingest     %,d records in %.1f s: %,d entries/s end to end (exactly once, real broker)%n",
                s.get("ingested_records").asLong(), s.get("ingest_seconds").asDouble(), s.get("entries_per_second").asLong());
        var state = s.get("state");
        out.printf("  state      %,d singleton paths (%,d present, %,d tombstoned, %,d with conflicts); %,d archive operations%n",
                state.get("singleton_paths").asLong(), state.get("present").asLong(), state.get("tombstoned").asLong(),
                state.get("paths_with_conflicts").asLong(), state.get("archived_operations").asLong());
        out.printf("  conflicts  %s%n", s.get("conflicts"));
        StringBuilder rejected = new StringBuilder();
        s.get("rejected_final").fields().forEachRemaining(e -> {
            // Beside a count, what the workload planted of that reason, when it planted any.
            String planted = g.has(e.getKey()) ? " (generated " + g.get(e.getKey()).asLong() + ")" : "";
            rejected.append(String.format("%s %,d%s  ", e.getKey(), e.getValue().asLong(), planted));
        });
        out.printf("  rejected   %s%n", rejected.toString().strip());
        out.printf("             (%s verdict events on jolt.rejected.v1 as records arrived)%n", s.get("rejected_events"));
        out.printf("  forgotten  %s%n", s.get("compactions").isEmpty() ? "nothing (jolt.compactions.v1 is empty)"
                : s.get("compactions") + " on jolt.compactions.v1; the archive keeps every entry ever eligible");
        out.printf("  sample     %s%n", sample);
        String identity = s.get("sample_identity").asText();
        out.println();
        out.println("Try:");
        out.printf("  curl '%s/v1/identities/%s/resolve?path=%s'%n", base, identity, s.get("sample_path").asText());
        out.printf("  curl '%s/v1/identities/%s/enumerate?prefix=/posts/&limit=5'%n", base, identity);
        out.printf("  curl '%s/v1/identities/%s'%n", base, identity);
        out.printf("  curl '%s/v1/identities/%s/conflicts'%n", base, identity);
        out.printf("  curl '%s/health'   curl '%s/metrics'%n", base, base);
        out.printf("  ./jolt write ... | curl -X POST --data-binary @- '%s/v1/records'%n", base);
        out.flush();
    }
}
