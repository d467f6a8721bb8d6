package io.jolt.stream.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.avro.Compaction;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.avro.PathState;
import io.jolt.stream.avro.RejectedRecord;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.IdentityQueries;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the demo shows after ingesting: the workload, the rate, the state and conflicts, the
 * rejections beside what the workload planted, what the live side forgot, and a sample resolve,
 * as a console summary and (for scripts) as JSON.
 */
public final class DemoSummary {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SAMPLE_PATHS = List.of("/profile", "/settings/theme", "/notes/1", "/notes/2");

    /** How long generating and ingesting took, how many records were ingested, and how processing went. */
    public record Timing(double generateSeconds, double ingestSeconds, long records, LocalRuns.Processed processed) {}

    private final ObjectNode summary;
    private final String sampleAnswer;
    private final String baseUrl;
    private final Optional<String> registryUrl;

    private DemoSummary(ObjectNode summary, String sampleAnswer, String baseUrl, Optional<String> registryUrl) {
        this.summary = summary;
        this.sampleAnswer = sampleAnswer;
        this.baseUrl = baseUrl;
        this.registryUrl = registryUrl;
    }

    public static DemoSummary of(TopicReader reader, SchemaRegistry registry, JoltNode node, Workload.Generated workload, Timing timing)
            throws IOException, InterruptedException {
        ObjectNode s = JSON.createObjectNode();
        ObjectNode generated = s.putObject("generated");
        workload.counts().forEach(generated::put);
        s.put("generate_seconds", round(timing.generateSeconds()));
        s.put("ingested_records", timing.records());
        s.put("ingest_seconds", round(timing.ingestSeconds()));
        s.put("records_per_second", Math.round(timing.records() / Math.max(timing.ingestSeconds(), 1e-3)));
        s.put("entries_per_second", Math.round(workload.entries().size() / Math.max(timing.ingestSeconds(), 1e-3)));
        s.put("first_minute_records_per_second", Math.round(timing.processed().firstMinuteRate()));
        LocalRuns.Processed p = timing.processed();
        double afterSeconds = p.seconds() - p.firstMinuteSeconds();
        if (afterSeconds > 5) {
            s.put("after_first_minute_records_per_second", Math.round((p.records() - p.inFirstMinute()) / afterSeconds));
        }
        s.put("verifier", node.service().signatures().verifier().name());
        s.set("state", state(reader, registry));
        List<ConflictEvent> conflicts = reader.values(Topics.CONFLICTS, registry, ConflictEvent.getClassSchema());
        ObjectNode conflictCounts = counts(conflicts, (ConflictEvent c) -> switch (c.getKind()) {
            case CONCURRENT_HEADS -> "concurrent_head_events";
            case EQUIVOCATION -> "equivocations";
            case AUTHORITY_FORK -> "authority_forks";
        });
        conflictCounts.put("clock_sensitive_events", conflicts.stream().filter(ConflictEvent::getClockSensitive).count());
        s.set("conflicts", conflictCounts);
        s.set("rejected_events", rejectedEvents(reader.<RejectedRecord>values(Topics.REJECTED, registry, RejectedRecord.getClassSchema())));
        s.set("compactions", counts(reader.values(Topics.COMPACTIONS, registry, Compaction.getClassSchema()),
                (Compaction c) -> c.getCause().name().toLowerCase(Locale.ROOT)));
        IdentityQueries queries = new IdentityQueries(node.service().streams(), node.service().signatures());
        s.set("rejected_final", finalRejections(queries, workload));
        String sample = sampleResolve(queries, node.baseUrl(), workload, s);
        return new DemoSummary(s, sample, node.baseUrl(), node.registryUrl());
    }

    public String json() throws JsonProcessingException {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary);
    }

    /** The state topic's last value per identity and path. */
    private static ObjectNode state(TopicReader reader, SchemaRegistry registry) {
        Map<String, StateChange> latest = new HashMap<>();
        reader.<StateChange>values(Topics.STATE, registry, StateChange.getClassSchema())
                .forEach(v -> latest.put(v.getIdentity() + "\u0000" + v.getPath(), v));
        long present = latest.values().stream().filter(v -> v.getState() == PathState.PRESENT).count();
        long tombstoned = latest.values().stream().filter(v -> v.getState() == PathState.TOMBSTONED).count();
        long withConflicts = latest.values().stream().filter(v -> v.getConflictCount() > 0).count();
        long archived = reader.readAll(Topics.ARCHIVE, new ByteArrayDeserializer(),
                new ByteArrayDeserializer(), (k, v) -> {});
        return JSON.createObjectNode().put("singleton_paths", present + tombstoned).put("present", present).put("tombstoned", tombstoned)
                .put("paths_with_conflicts", withConflicts).put("archived_operations", archived);
    }

    /** Verdict events as records arrived, each (identity, reason, entry, offset) once: a re-delivery is not a second verdict. */
    private static ObjectNode rejectedEvents(List<RejectedRecord> events) {
        Set<String> seen = new HashSet<>();
        List<RejectedRecord> distinct = events.stream()
                .filter(v -> seen.add(v.getIdentity() + v.getReason() + v.getEntryHash() + v.getSourceOffset())).toList();
        return counts(distinct, v -> v.getReason().name().toLowerCase(Locale.ROOT));
    }

    private static <T> ObjectNode counts(List<T> values, Function<T, String> key) {
        Map<String, Long> counts = new TreeMap<>();
        values.forEach(v -> counts.merge(key.apply(v), 1L, Long::sum));
        ObjectNode out = JSON.createObjectNode();
        counts.forEach(out::put);
        return out;
    }

    /**
     * Rejections in the final state of every identity (the rejected topic is a stream of verdicts
     * as records arrived: an entry seen before its Authorize is unknown_device there, then admitted).
     */
    private static ObjectNode finalRejections(IdentityQueries queries, Workload.Generated workload) {
        Map<String, Long> reasons = new TreeMap<>();
        workload.authority().stream().map(r -> r.body().identity()).distinct().forEach(identity ->
                queries.state(identity).ifPresent(state -> state.rejected().forEach(row -> reasons.merge(row.reason().wireName(), 1L, Long::sum))));
        ObjectNode out = JSON.createObjectNode();
        reasons.forEach(out::put);
        return out;
    }

    /** Resolves a present path of the first identity through the HTTP API, as a user would. */
    private static String sampleResolve(IdentityQueries queries, String baseUrl, Workload.Generated workload, ObjectNode summary)
            throws IOException, InterruptedException {
        String identity = workload.authority().get(0).body().identity();
        String path = SAMPLE_PATHS.stream().filter(p -> queries.resolve(identity, p) instanceof Resolution.Present).findFirst()
                .orElse(SAMPLE_PATHS.get(0));
        String url = baseUrl + "/v1/identities/" + identity + "/resolve?path=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        summary.put("sample_path", path);
        summary.put("sample_identity", identity);
        summary.put("sample_resolve_status", response.statusCode());
        return "GET " + url + "\n    -> " + response.statusCode() + " " + response.body();
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    public void print(PrintWriter out, int devices) {
        JsonNode g = summary.get("generated");
        out.println();
        out.println("jolt demo: summary");
        out.printf("  workload   %,d identities x %d devices: %,d entries, %,d authority records (signed in %.1f s)%n",
                g.get("identities").asLong(), devices, g.get("entries").asLong(), g.get("authority_records").asLong(),
                summary.get("generate_seconds").asDouble());
        out.printf("  ingest     %,d records in %.1f s: %,d entries/s end to end (exactly once, real broker, %s verifier)%n",
                summary.get("ingested_records").asLong(), summary.get("ingest_seconds").asDouble(), summary.get("entries_per_second").asLong(),
                summary.get("verifier").asText());
        out.printf("             %s%n", firstMinute());
        JsonNode state = summary.get("state");
        out.printf("  state      %,d singleton paths (%,d present, %,d tombstoned, %,d with conflicts); %,d archive operations%n",
                state.get("singleton_paths").asLong(), state.get("present").asLong(), state.get("tombstoned").asLong(),
                state.get("paths_with_conflicts").asLong(), state.get("archived_operations").asLong());
        out.printf("  conflicts  %s%n", summary.get("conflicts"));
        out.printf("  rejected   %s%n", rejectedBesidePlanted(g));
        out.printf("             (%s verdict events on jolt.rejected.v2 as records arrived)%n", summary.get("rejected_events"));
        out.printf("  forgotten  %s%n", summary.get("compactions").isEmpty() ? "nothing (jolt.compactions.v2 is empty)"
                : summary.get("compactions") + " on jolt.compactions.v2; the archive keeps every entry ever eligible");
        out.printf("  sample     %s%n", sampleAnswer);
        printTry(out);
    }

    /** The first minute after RUNNING (a cold service) beside the rate after it, when the ingest lasted beyond it. */
    private String firstMinute() {
        String first = String.format("first minute after RUNNING: %,d records/s", summary.get("first_minute_records_per_second").asLong());
        return summary.has("after_first_minute_records_per_second")
                ? first + String.format("; after it: %,d records/s", summary.get("after_first_minute_records_per_second").asLong())
                : first + " (all of the ingest fell in it: a cold service; `./jolt bench` measures the steady rate)";
    }

    /** Beside each final count, what the workload planted of that reason, when it planted any. */
    private String rejectedBesidePlanted(JsonNode generated) {
        StringBuilder rejected = new StringBuilder();
        summary.get("rejected_final").fields().forEachRemaining(e -> {
            String planted = generated.has(e.getKey()) ? " (generated " + generated.get(e.getKey()).asLong() + ")" : "";
            rejected.append(String.format("%s %,d%s  ", e.getKey(), e.getValue().asLong(), planted));
        });
        return rejected.toString().strip();
    }

    private void printTry(PrintWriter out) {
        String identity = summary.get("sample_identity").asText();
        out.println();
        out.printf("Dashboard (conflicts, rejections, losses, ingest; live): %s/dashboard%n", baseUrl);
        registryUrl.ifPresent(url -> out.printf("Schema registry (read-only, Confluent API; decodes the topics): %s%n", url));
        out.println();
        out.println("Try:");
        out.printf("  curl '%s/v1/identities/%s/resolve?path=%s'%n", baseUrl, identity, summary.get("sample_path").asText());
        out.printf("  curl '%s/v1/identities/%s/enumerate?prefix=/posts/&limit=5'%n", baseUrl, identity);
        out.printf("  curl '%s/v1/identities/%s'%n", baseUrl, identity);
        out.printf("  curl '%s/v1/identities/%s/conflicts'%n", baseUrl, identity);
        out.printf("  curl '%s/health/ready'   curl '%s/health/live'   curl '%s/metrics'%n", baseUrl, baseUrl, baseUrl);
        out.printf("  curl '%s/v1/analytics/top?what=paths&window=1h&n=10'%n", baseUrl);
        out.printf("  curl '%s/v1/analytics/conflicts?window=1m&by=kind'%n", baseUrl);
        out.printf("  ./jolt write ... | curl -X POST --data-binary @- '%s/v1/records'%n", baseUrl);
        out.flush();
    }
}
