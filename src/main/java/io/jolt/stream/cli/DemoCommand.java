package io.jolt.stream.cli;

import io.jolt.stream.local.CpuUse;
import io.jolt.stream.local.DemoSummary;
import io.jolt.stream.local.LocalBroker;
import io.jolt.stream.local.LocalRuns;
import io.jolt.stream.local.LocalStack;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"The whole product on one machine: a real local Kafka broker (deploy/start-kafka.sh) unless --bootstrap,",
            "the stream processor and its HTTP API, and a generated workload (concurrent writes, tombstones and restores,",
            "a revocation, a fork, bad records). Shows progress, prints a summary and example curl commands,",
            "then serves until Ctrl-C and stops everything it started."})
final class DemoCommand implements Callable<Integer> {
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
        CountDownLatch stopped = new CountDownLatch(1);
        try (LocalStack stack = LocalStack.start("demo", bootstrap, err)) {
            err.println("demo: broker at " + stack.bootstrap());
            long t0 = System.nanoTime();
            Workload.Generated workload = LocalRuns.generate(new Workload.Shape(identities, devices, entriesPerDevice, 7), err);
            double generateSeconds = (System.nanoTime() - t0) / 1e9;

            String applicationId = "jolt-demo-" + System.currentTimeMillis();
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            JoltNode node = stack.open(JoltNode.start(config(stack.bootstrap(), applicationId), registry)).awaitReady(Duration.ofSeconds(120));
            CpuUse running = CpuUse.now(stack.brokerProcess());
            if (!exitAfterSummary) {
                // Ctrl-C stops everything the demo started, broker included, and lets the serving thread return.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    stack.close();
                    stopped.countDown();
                }, "jolt-demo-shutdown"));
            }
            err.println("demo: service ready (" + node.baseUrl() + "/health/ready), HTTP API on " + node.baseUrl() + ", dashboard on " + node.baseUrl()
                    + "/dashboard");

            DemoSummary summary = ingest(stack, node, registry, workload, applicationId, new Started(generateSeconds, running), err);
            summary.print(out, devices);
            if (summaryJson != null) {
                Files.writeString(summaryJson, summary.json());
            }
            if (!exitAfterSummary) {
                out.println();
                out.println("Serving until Ctrl-C ...");
                out.flush();
                stopped.await();
            }
            return 0;
        }
    }

    private JoltConfig config(String bootstrap, String applicationId) throws IOException {
        Path stateDir = Files.createDirectories(LocalBroker.home().resolve("target/demo-state").resolve(applicationId));
        return LocalRuns.config(bootstrap, applicationId, stateDir, partitions, null).with(JoltNode.HTTP_PORT, String.valueOf(httpPort));
    }

    /** How long generating took, and the CPU reading when the service became ready (RUNNING: a new application id restores nothing). */
    private record Started(double generateSeconds, CpuUse runningSince) {}

    /** Produces the workload, shows its progress until all of it is processed, and summarizes what the topics and stores hold. */
    private static DemoSummary ingest(LocalStack stack, JoltNode node, InMemorySchemaRegistry registry, Workload.Generated workload,
            String applicationId, Started started, PrintWriter err) throws Exception {
        TopicReader reader = stack.open(new TopicReader(stack.bootstrap()));
        TopicReader.Progress before = reader.progress(applicationId);
        long t1 = System.nanoTime();
        long records = LocalRuns.ingest(node.ingest(), workload);
        LocalRuns.Processed processed = LocalRuns.awaitProcessed(reader, applicationId, before.processed(), records, "ingesting", err,
                started.runningSince(), stack.brokerProcess());
        double ingestSeconds = (System.nanoTime() - t1) / 1e9;
        node.service().bolt().flush();
        DemoSummary summary = DemoSummary.of(reader, registry, node, workload,
                new DemoSummary.Timing(started.generateSeconds(), ingestSeconds, records, processed));
        stack.closeEarly(reader); // not needed while serving
        return summary;
    }
}
