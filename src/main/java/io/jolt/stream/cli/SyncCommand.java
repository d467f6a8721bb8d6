package io.jolt.stream.cli;

import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.EntryInput;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.protocol.sync.SuppliedLog;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.protocol.sync.SyncResponse;
import io.jolt.stream.protocol.sync.SyncSession;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicSchemas;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "sync", mixinStandardHelpOptions = true,
        description = {"Pull one identity from a provider by delta sync (RFC-0008 §10-11), following continuations.",
            "Every page is re-verified (authority, chain continuity, signatures, merge); a supplied log with one invalid",
            "entry is rejected whole. What was verified is kept in --state, so a later run asks only for what is new."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:synced", "1:the provider failed or answered something unreadable", "2:usage error",
            "4:the provider's history needs an operation level this client does not support (nothing applied)",
            "5:some supplied logs were rejected (see stderr; the rest was applied)"})
final class SyncCommand implements Callable<Integer> {
    @Option(names = "--from", required = true, paramLabel = "URL", description = "The provider's base URL, e.g. http://127.0.0.1:8080")
    String from;

    @Option(names = "--identity", required = true, paramLabel = "ID")
    String identity;

    @Option(names = "--state", defaultValue = "jolt-sync", paramLabel = "DIR",
            description = "Where verified records are kept between runs (default ${DEFAULT-VALUE}).")
    Path state;

    @Option(names = "--out", paramLabel = "FILE", description = "Write everything held for the identity as §9 JSON Lines.")
    Path out;

    @Option(names = "--ingest", paramLabel = "HOST:PORT", description = "Produce what was newly verified to this cluster's input topics.")
    String ingest;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path held = state.resolve(identity + ".jsonl");
        SyncSession session = load(held);
        Set<Entry> before = new HashSet<>(session.entries());
        Set<AuthorityRecord> authorityBefore = new HashSet<>(session.authority());
        Pulled pulled = pull(session, err);
        if (pulled.unsupportedLevel()) {
            return 4;
        }
        save(held, session);
        if (out != null) {
            writeJsonLines(out, session.authority(), session.entries());
        }
        if (ingest != null) {
            try (RecordIngest producer = new RecordIngest(ingest, TopicSchemas.seededRegistry())) {
                session.authority().stream().filter(a -> !authorityBefore.contains(a)).forEach(a -> producer.send(producer.authority(a)));
                session.entries().stream().filter(e -> !before.contains(e)).forEach(e -> producer.send(producer.entry(e)));
                producer.flush();
            }
        }
        spec.commandLine().getOut().printf("synced %s from %s: %d page(s), %d entries transferred, %d held, %d singleton paths%n",
                identity, from, pulled.pages(), pulled.transferred(), session.entries().size(), session.merged().singletons().size());
        return pulled.rejectedLogs() == 0 ? 0 : 5;
    }

    /** What a pull did: pages asked, entries accepted, supplied logs refused, and whether the provider's level stopped it. */
    private record Pulled(int pages, long transferred, int rejectedLogs, boolean unsupportedLevel) {}

    /** Asks page after page until the provider has nothing more, applying each to the session. */
    private Pulled pull(SyncSession session, PrintWriter err) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        int pages = 0;
        int rejectedLogs = 0;
        long transferred = 0;
        boolean more = true;
        while (more) {
            SyncSession.Outcome outcome = session.accept(fetch(http, session.nextRequest()));
            pages++;
            if (outcome instanceof SyncSession.Outcome.UnsupportedLevel u) {
                err.println("jolt sync: the provider's history requires operation level " + u.requiredLevel()
                        + "; this client supports " + SyncResponder.KNOWN_OPERATION_LEVEL + ": nothing applied");
                return new Pulled(pages, transferred, rejectedLogs, true);
            }
            SyncSession.Outcome.Applied applied = (SyncSession.Outcome.Applied) outcome;
            transferred += applied.acceptedEntries();
            for (SuppliedLog.Rejection r : applied.rejectedLogs()) {
                rejectedLogs++;
                err.println("jolt sync: rejected the supplied log of " + r.deviceId() + ": " + r);
            }
            more = applied.more();
            err.printf("page %d: %s, %d entries verified%s%n", pages, applied.complete() ? "complete response" : "delta page",
                    applied.acceptedEntries(), more ? ", continuing" : "");
        }
        return new Pulled(pages, transferred, rejectedLogs, false);
    }

    private SyncResponse fetch(HttpClient http, SyncRequest request) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(from.replaceAll("/+$", "") + "/jolt/device-writer/sync"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", SyncRequest.MEDIA_TYPE)
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.encode())).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the provider answered HTTP " + response.statusCode() + ": "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        try {
            return SyncResponse.decode(response.body());
        } catch (DecodeException e) {
            throw new IllegalStateException("the provider's response is not a sync response: " + e.getMessage());
        }
    }

    private SyncSession load(Path file) throws Exception {
        if (!Files.exists(file)) {
            return new SyncSession(identity, SignatureCheck.DEFINITION);
        }
        List<AuthorityRecord> authority = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            RecordJson.Line read = RecordJson.read(line.getBytes(StandardCharsets.UTF_8));
            if (read instanceof RecordJson.AuthorityLine a && a.record() != null) {
                authority.add(a.record());
            } else if (read instanceof RecordJson.EntryLine e && e.input() instanceof EntryInput.Signed s) {
                entries.add(s.entry());
            }
        }
        return new SyncSession(identity, authority, entries, SignatureCheck.DEFINITION);
    }

    private static void save(Path file, SyncSession session) throws Exception {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        writeJsonLines(tmp, session.authority(), session.entries());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeJsonLines(Path file, List<AuthorityRecord> authority, List<Entry> entries) throws Exception {
        StringBuilder text = new StringBuilder();
        authority.forEach(a -> text.append(RecordJson.write(a)).append('\n'));
        entries.forEach(e -> text.append(RecordJson.write(e)).append('\n'));
        Files.writeString(file, text);
    }
}
