package io.jolt.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.archive.replay.ArchiveReplay;
import io.jolt.stream.archive.replay.ArchivedHistory;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Read the bolt (jolt.archive.v2), never write anything: the archived history of an identity or a path,",
            "the merged singleton/append state as of an archive offset or time (computed by the protocol core from the",
            "archived entries), or an export as §9 JSON Lines. Operations the at-least-once archive holds twice are shown once.",
            "With --archive-service it asks `jolt archive serve`'s index (cost: the identity's operations); with --bootstrap",
            "it reads the identity's archive partition itself. A replay may be read; it must never be authored from."})
final class ReplayCommand implements Callable<Integer> {
    enum Mode { history, state, export }

    static final class Source {
        @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "Read the archive topic on this cluster.")
        String bootstrap;

        @Option(names = "--archive-service", paramLabel = "URL", description = "Ask this archive service (jolt archive serve), e.g. http://127.0.0.1:8090.")
        String service;
    }

    @ArgGroup(multiplicity = "1")
    Source source;

    @Option(names = "--topic", defaultValue = Topics.ARCHIVE,
            description = "The archive topic with --bootstrap (default ${DEFAULT-VALUE}; a mirror of it may have another name).")
    String topic;

    @Option(names = "--identity", paramLabel = "ID", description = "The identity (required for history and state, and with --archive-service).")
    String identity;

    @Option(names = "--path", paramLabel = "PATH", description = "Only this path (history).")
    String path;

    @Option(names = "--mode", defaultValue = "history", description = "history | state | export (default ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = "--until-offset", paramLabel = "N", description = "Only archive records at or below this offset of their partition.")
    Long untilOffset;

    @Option(names = "--until-time", paramLabel = "MS", description = "Only archive records written at or before this time (ms since the epoch).")
    Long untilTime;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (identity == null && (mode != Mode.export || source.service != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--identity is required for --mode " + mode
                    + (source.service != null ? " with --archive-service" : ""));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (source.service != null) {
            fromService(out);
        } else {
            fromArchive(out);
        }
        out.flush();
        return 0;
    }

    private void fromArchive(PrintWriter out) {
        ArchiveReplay replay = new ArchiveReplay(source.bootstrap, topic, TopicSchemas.seededRegistry());
        if (identity == null) {
            replay.read(null, untilOffset, untilTime).forEach(a -> out.println(RecordJson.write(a.entry())));
            return;
        }
        ArchivedHistory history = replay.history(identity, mode == Mode.history ? path : null, untilOffset, untilTime, false);
        switch (mode) {
            case history -> history.operations().forEach(a -> out.println(line(a.kind().name(), a.identity(), a.entry().deviceId(),
                    Long.toUnsignedString(a.entry().sequence()), a.entry().body().operation().path(), a.entry().hash().hex(), a.partition(), a.offset())));
            case state -> out.println(MergedStateJson.write(history.state()));
            case export -> history.operations().forEach(a -> out.println(RecordJson.write(a.entry())));
        }
        reportDuplicates(history.duplicatesRemoved());
    }

    private void fromService(PrintWriter out) throws Exception {
        List<String> query = new ArrayList<>();
        if (path != null && mode == Mode.history) {
            query.add("path=" + URLEncoder.encode(path, StandardCharsets.UTF_8));
        }
        if (untilOffset != null) {
            query.add("as_of_offset=" + untilOffset);
        }
        if (untilTime != null) {
            query.add("as_of_time=" + untilTime);
        }
        String id = URLEncoder.encode(identity, StandardCharsets.UTF_8);
        String route = mode == Mode.export ? "/v1/archive/export?identity=" + id : "/v1/archive/identities/" + id + "/" + mode;
        String url = source.service.replaceAll("/+$", "") + route + (query.isEmpty() ? "" : (route.contains("?") ? "&" : "?") + String.join("&", query));
        HttpResponse<String> answer = get(url);
        if (mode == Mode.export) {
            out.print(answer.body());
            reportDuplicates(Integer.parseInt(answer.headers().firstValue("Jolt-Duplicates-Removed").orElse("0")));
            return;
        }
        JsonNode body = new ObjectMapper().readTree(answer.body());
        if (mode == Mode.state) {
            out.println(new ObjectMapper().writeValueAsString(body.get("state")));
        } else {
            for (JsonNode op : body.get("operations")) {
                out.println(line(op.get("kind").asText(), identity, op.get("device_id").asText(), op.get("sequence").asText(), op.get("path").asText(),
                        op.get("entry_hash").asText(), op.get("archive_partition").asInt(), op.get("archive_offset").asLong()));
            }
        }
        reportDuplicates(body.get("duplicates_removed").asInt());
    }

    private static HttpResponse<String> get(String url) throws Exception {
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("the archive service answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer;
    }

    private static String line(String kind, String identity, String device, String sequence, String path, String hash, int partition, long offset) {
        return String.format("%s %s %s#%s %s %s (archive %d/%d)", kind, identity, device, sequence, path, hash, partition, offset);
    }

    private void reportDuplicates(int removed) {
        if (removed > 0) {
            spec.commandLine().getErr().println("replay: " + removed + " operation(s) the archive holds twice (at-least-once) shown once");
        }
    }
}
