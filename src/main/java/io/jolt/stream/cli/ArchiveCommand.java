package io.jolt.stream.cli;

import io.jolt.stream.archive.service.ArchiveService;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.SchemaRegistries;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "archive", mixinStandardHelpOptions = true,
        description = "The archive service: an index of its own over the bolt (jolt.archive.v2), asked over HTTP.",
        subcommands = {ArchiveCommand.Serve.class, ArchiveBenchCommand.class})
final class ArchiveCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = {"Index jolt.archive.v2 (from its first record, exactly once; a restart resumes) and answer until interrupted:",
                "GET /v1/archive/identities/{id}/history[?path=P], GET /v1/archive/identities/{id}/state?as_of_offset=N|as_of_time=T,",
                "GET /v1/archive/export?identity=ID, GET /v1/archive/status. Read-only: it writes no topic but its index's changelogs."})
    static final class Serve implements Callable<Integer> {
        @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "The cluster that holds jolt.archive.v2.")
        String bootstrap;

        @Option(names = "--topic", defaultValue = Topics.ARCHIVE,
                description = "The archive topic (default ${DEFAULT-VALUE}; a mirror of it on another cluster may have another name).")
        String topic;

        @Option(names = "--client-config", paramLabel = "FILE",
                description = "Kafka client settings for every client of the service (security.protocol, sasl.*, ssl.*, ...).")
        Path clientConfig;

        @Option(names = "--port", defaultValue = "8090", description = "HTTP port (default ${DEFAULT-VALUE}; 0 picks a free one).")
        int port;

        @Option(names = "--host", defaultValue = "127.0.0.1", description = "HTTP address, also this instance's application.server (default ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--state-dir", paramLabel = "DIR", description = "Where the index lives (default: ~/.jolt/archive/<application id>).")
        Path stateDir;

        @Option(names = "--application-id", defaultValue = ArchiveService.Settings.DEFAULT_APPLICATION_ID,
                description = "The index's own Kafka Streams application id (default ${DEFAULT-VALUE}).")
        String applicationId;

        @Option(names = "--ready-max-lag", paramLabel = "RECORDS", defaultValue = "" + ArchiveService.Settings.DEFAULT_READY_MAX_LAG,
                description = {"GET /health/ready answers 200 only while the partitions this instance indexes are at most this many records",
                    "behind the archive's end (default ${DEFAULT-VALUE})."})
        long readyMaxLag;

        @Option(names = "--registry", paramLabel = "URL", description = "A Confluent-compatible schema registry (default: the schemas built in).")
        String registry;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            // Not under the OS temp directory, which may be cleared under a running index.
            Path dir = stateDir != null ? stateDir : Path.of(System.getProperty("user.home"), ".jolt", "archive", applicationId);
            SchemaRegistry schemas = registry == null ? TopicSchemas.seededRegistry()
                    : SchemaRegistries.from(k -> k.equals(SchemaRegistries.URL) ? registry : null).orElseThrow();
            ArchiveService service = ArchiveService.start(new ArchiveService.Settings(bootstrap, topic, applicationId, dir, host, port, client(),
                    readyMaxLag), schemas);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                service.close();
                stopped.countDown();
            }, "jolt-archive-shutdown"));
            spec.commandLine().getErr().println("jolt archive serve: indexing " + topic + " on " + bootstrap + " (application.id " + applicationId + ", state "
                    + dir + "), HTTP API on " + service.baseUrl() + "/v1/archive/status; Ctrl-C stops");
            stopped.await();
            return 0;
        }

        private Properties client() throws IOException {
            Properties p = new Properties();
            if (clientConfig != null) {
                try (Reader in = Files.newBufferedReader(clientConfig)) {
                    p.load(in);
                }
            }
            return p;
        }
    }
}
