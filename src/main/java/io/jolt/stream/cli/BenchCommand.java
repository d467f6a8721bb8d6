package io.jolt.stream.cli;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.JoltService;
import io.jolt.stream.kafka.ProcessorMetrics;
import io.jolt.stream.kafka.RecordIngest;
import io.jolt.stream.kafka.TopicGuard;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.kafka.TopicSchemas;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"End-to-end throughput: generate signed entries, run them through a real broker and the topology",
            "(exactly once), and print entries/s beside the raw BouncyCastle Ed25519 verify rate measured in the same run",
            "with as many threads as the service has stream threads."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--entries", defaultValue = "200000", description = "Entries to generate (default ${DEFAULT-VALUE}).")
    int entries;

    @Option(names = "--warm-up", defaultValue = "120000",
            description = "Entries (other identities) processed first and not timed, so that the JIT has compiled the pipeline,"
                    + " as the raw verify loop is warm when it is timed (default ${DEFAULT-VALUE}; 0: time from a cold start)."
                    + " The JIT's share of the timed part is printed: well above 0 means not yet at steady state.")
    int warmUpEntries;

    @Option(names = "--devices", defaultValue = "3", description = "Devices per identity (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(names = "--entries-per-device", defaultValue = "10", description = "Entries per device (default ${DEFAULT-VALUE}).")
    int entriesPerDevice;

    @Option(names = "--threads", description = "Stream threads, and verify threads for the crypto limit (default: the machine's cores).")
    Integer threads;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of every topic (default ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "An empty Kafka cluster to use instead of a fresh local broker.")
    String bootstrap;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        int streamThreads = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        int perIdentity = devices * entriesPerDevice;
        int identities = Math.max(1, (int) Math.ceil(entries / (double) perIdentity));
        Workload.Generated workload = LocalRuns.generate(new Workload.Shape(identities, devices, entriesPerDevice, 11), err);
        int warmUpIdentities = (int) Math.ceil(warmUpEntries / (double) perIdentity);
        Workload.Generated warmUp = warmUpIdentities == 0 ? null
                : LocalRuns.generate(new Workload.Shape(warmUpIdentities, devices, entriesPerDevice, 12), err);

        RawVerifyRate raw = new RawVerifyRate(workload);
        err.println("bench: measuring the raw BouncyCastle verify rate with " + streamThreads + " thread(s) ...");
        // The first measurement runs after an untimed 5 s, so that the JIT has compiled the verify loop (C2 takes seconds).
        double rawBefore = raw.measure(streamThreads, Duration.ofSeconds(5), Duration.ofSeconds(5));
        try (LocalStack stack = LocalStack.start("bench", bootstrap, err)) {
            Timed timed = runService(stack, workload, warmUp, streamThreads, err);
            // Measured again once the service has stopped, and averaged: the machine's speed drifts within a run.
            err.println("bench: measuring the raw BouncyCastle verify rate again ...");
            double rawAfter = raw.measure(streamThreads, Duration.ZERO, Duration.ofSeconds(5));
            BenchResult.Shape shape = new BenchResult.Shape(workload.entries().size(), identities, devices, streamThreads, partitions);
            BenchResult.WarmUp warmedUp = warmUp == null ? null : new BenchResult.WarmUp(warmUp.entries().size(), timed.warmUpSeconds());
            new BenchResult(shape, warmedUp, timed.records(), timed.seconds(), rawBefore, rawAfter, timed.cores(), timed.checks(),
                    timed.counters()).print(spec.commandLine().getOut());
        }
        return 0;
    }

    /** What the service did in the timed part. */
    private record Timed(long records, double warmUpSeconds, double seconds, CpuUse.Cores cores, long checks, Map<String, Double> counters) {}

    /** Produces warm-up and timed records, then starts the service and times it through the timed ones. */
    private Timed runService(LocalStack stack, Workload.Generated workload, Workload.Generated warmUp, int streamThreads, PrintWriter err)
            throws Exception {
        String applicationId = "jolt-bench-" + System.currentTimeMillis();
        Path stateDir = Files.createDirectories(LocalBroker.home().resolve("target/bench-state").resolve(applicationId));
        JoltConfig config = LocalRuns.config(stack.bootstrap(), applicationId, stateDir, partitions, streamThreads);
        try (Admin admin = Admin.create(config.adminProperties())) {
            TopicGuard.ensure(admin, Topics.load(partitions, null));
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        long t0 = System.nanoTime();
        long warmUpRecords = 0;
        long records;
        try (RecordIngest ingest = new RecordIngest(stack.bootstrap(), registry)) {
            // The warm-up records go first, so every partition reaches the timed records after them.
            warmUpRecords = warmUp == null ? 0 : LocalRuns.ingest(ingest, warmUp);
            records = LocalRuns.ingest(ingest, workload);
        }
        err.printf("bench: produced %,d records (%,d of them warm-up) in %.1f s%n", records + warmUpRecords, warmUpRecords,
                (System.nanoTime() - t0) / 1e9);
        long t1 = System.nanoTime();
        try (JoltService<KafkaBolt> service = JoltService.start(config, registry, () -> new KafkaBolt(config.adminProperties(), registry));
                TopicReader reader = new TopicReader(stack.bootstrap())) {
            double warmUpSeconds = 0;
            if (warmUpRecords > 0) {
                LocalRuns.awaitProcessed(reader, applicationId, 0, warmUpRecords, "warming up", err);
                warmUpSeconds = (System.nanoTime() - t1) / 1e9;
            }
            CpuUse timedFrom = CpuUse.now(stack.brokerProcess());
            long checksBefore = PublicKey.checksComputed();
            LocalRuns.awaitProcessed(reader, applicationId, warmUpRecords, records, "processing", err);
            CpuUse.Cores cores = CpuUse.now(stack.brokerProcess()).since(timedFrom);
            long checks = PublicKey.checksComputed() - checksBefore;
            return new Timed(records, warmUpSeconds, (System.nanoTime() - t1) / 1e9 - warmUpSeconds, cores, checks, processorCounters(service));
        }
    }

    /** The processor's counters, summed over tasks (a reason tag kept in the name). */
    private static Map<String, Double> processorCounters(JoltService<?> service) {
        Map<String, Double> counters = new TreeMap<>();
        service.streams().metrics().forEach((name, metric) -> {
            if (name.group().equals(ProcessorMetrics.GROUP)) {
                counters.merge(name.name() + (name.tags().containsKey("reason") ? "{" + name.tags().get("reason") + "}" : ""),
                        ((Number) metric.metricValue()).doubleValue(), Double::sum);
            }
        });
        return counters;
    }
}
