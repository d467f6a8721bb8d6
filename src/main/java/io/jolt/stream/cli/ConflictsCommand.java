package io.jolt.stream.cli;

import io.jolt.stream.analytics.ConflictExport;
import io.jolt.stream.analytics.ConflictRow;
import io.jolt.stream.analytics.TimeArgument;
import io.jolt.stream.avro.ConflictEvent;
import io.jolt.stream.local.ProgressBar;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.ConfluentAvroSerde;
import io.jolt.stream.wire.serde.SchemaRegistries;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "conflicts", mixinStandardHelpOptions = true, subcommands = ConflictsCommand.Export.class,
        description = "Conflict analytics from jolt.conflicts.v2 (read-only).")
final class ConflictsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Write the conflict events of a time range as CSV or JSON Lines, one row per event, to open as they are in",
                "DuckDB, pandas or a spreadsheet. Reads jolt.conflicts.v2 (read_committed), never writes; progress on stderr."})
    static final class Export implements Callable<Integer> {
        @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT")
        String bootstrap;

        @Option(names = "--since", paramLabel = "TIME", description = "From this time on (ISO-8601 instant or ms since the epoch; default: the beginning).")
        String since;

        @Option(names = "--until", paramLabel = "TIME", description = "Before this time (ISO-8601 instant or ms since the epoch; default: now).")
        String until;

        @Option(names = "--format", defaultValue = "csv", description = "csv | jsonl (default ${DEFAULT-VALUE}).")
        ConflictExport.Format format;

        @Option(names = "--kind", paramLabel = "KIND", description = "Only this kind: concurrent_heads | equivocation | authority_fork.")
        String kind;

        @Option(names = "--out", paramLabel = "FILE", description = "Write here (default: stdout).")
        Path out;

        @Option(names = "--schema-registry-url", paramLabel = "URL", description = "The registry the service writes through (default: the embedded one).")
        String registryUrl;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            long from = since == null ? 0 : time(since, "--since");
            long to = until == null ? Long.MAX_VALUE : time(until, "--until");
            if (kind != null && !kind.equals("concurrent_heads") && !kind.equals("equivocation")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--kind must be concurrent_heads or equivocation, not " + kind);
            }
            SchemaRegistry registry = registryUrl == null ? TopicSchemas.seededRegistry()
                    : SchemaRegistries.from(Map.of(SchemaRegistries.URL, registryUrl)::get).orElseThrow();
            ConfluentAvroSerde<ConflictEvent> serde = new ConfluentAvroSerde<>(registry, ConflictEvent.getClassSchema());
            PrintWriter err = spec.commandLine().getErr();
            ProgressBar bar = new ProgressBar(err, "exporting");
            Writer writer = out == null ? spec.commandLine().getOut() : Files.newBufferedWriter(out, StandardCharsets.UTF_8);
            try (ConflictExport export = new ConflictExport(writer, format)) {
                TopicReader.readTimeRange(bootstrap, Topics.CONFLICTS, from, to, (done, total) -> bar.update(done, total, "events read"), r -> {
                    ConflictRow row = ConflictRow.of(serde.deserialize(r.topic(), r.value()), r.timestamp(), r.partition(), r.offset());
                    if (kind == null || row.kind().equals(kind)) {
                        export.write(row);
                    }
                });
                bar.finish();
                err.printf("exported %,d conflict event(s) as %s%s%n", export.rows(), format, out == null ? "" : " to " + out);
            } finally {
                if (out != null) {
                    writer.close(); // stdout stays open
                }
            }
            return 0;
        }

        private long time(String value, String option) {
            try {
                return TimeArgument.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + ": " + e.getMessage());
            }
        }
    }
}
