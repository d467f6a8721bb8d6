package io.jolt.stream.cli;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.bench.BenchResult;
import io.jolt.stream.bench.FrameworkFloor;
import io.jolt.stream.bench.RawVerifyRate;
import io.jolt.stream.bench.TopicWrites;
import io.jolt.stream.crypto.NativeFirstVerifier;
import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.local.CpuUse;
import io.jolt.stream.local.LocalRuns;
import io.jolt.stream.local.LocalStack;
import io.jolt.stream.processor.ProcessorMetrics;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltService;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"End-to-end throughput: generate signed entries, run them through a real broker and the topology",
            "(exactly once), and print entries/s beside the raw BouncyCastle Ed25519 verify rate measured in the same run",
            "with as many threads as the service has stream threads; then the framework floor over the same records."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--entries", defaultValue = "200000", description = "Entries to generate (default ${DEFAULT-VALUE}).")
    int entries;

    @Option(names = "--warm-up", defaultValue = "120000",
            description = "Entries (other identities) processed first and not timed, so that the JIT has compiled the pipeline,"
                    + " as the raw verify loop is warm when it is timed (default ${DEFAULT-VALUE}; 0: time from a cold start)."
                    + " The JIT's share of the timed part is printed: well above 0 means not yet at steady state.")
    int warmUpEntries;

    // On by default: a second pass over every record at several times the service's rate costs a small share of a bench.
    @Option(names = "--floor", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After the service, time the framework floor over the same records: the smallest exactly-once Kafka Streams"
                    + " application with the service's settings (decode as the service does, one RocksDB put, one output record), and"
                    + " print the floor ratio, end to end over the floor's rate (the target: >= 0.5). On by default; --no-floor skips it.")
    boolean floor;

    @CommandLine.Mixin
    WorkloadShapeOptions shape;

    @CommandLine.Mixin
    LocalRunOptions local;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        int streamThreads = local.streamThreads();
        int identities = Math.max(1, shape.identitiesFor(entries));
        Workload.Generated workload = LocalRuns.generate(shape.shape(identities, 11), err);
        int warmUpIdentities = shape.identitiesFor(warmUpEntries);
        Workload.Generated warmUp = warmUpIdentities == 0 ? null : LocalRuns.generate(shape.shape(warmUpIdentities, 12), err);

        BenchResult.Verifier verifier = chosenVerifier();
        RawVerifyRate bouncyCastle = new RawVerifyRate(workload, RawVerifyRate.BOUNCYCASTLE);
        Optional<RawVerifyRate> libsodium = libsodiumRate(workload);
        err.println("bench: measuring the raw verify rates with " + streamThreads + " thread(s) ...");
        // The first measurement runs after an untimed 5 s, so that the JIT has compiled the verify loop (C2 takes seconds).
        double bouncyCastleBefore = bouncyCastle.measure(streamThreads, Duration.ofSeconds(5), Duration.ofSeconds(5));
        Optional<Double> libsodiumBefore = libsodium.map(r -> measure(r, streamThreads, Duration.ofSeconds(2)));
        try (LocalStack stack = LocalStack.start("bench", local.bootstrap, err)) {
            Run run = runService(stack, workload, warmUp, streamThreads, err);
            // Measured again once the service has stopped, and averaged: the machine's speed drifts within a run.
            err.println("bench: measuring the raw verify rates again ...");
            BenchResult.RawRates bouncyCastleRates = new BenchResult.RawRates(bouncyCastleBefore,
                    bouncyCastle.measure(streamThreads, Duration.ZERO, Duration.ofSeconds(5)));
            BenchResult.RawRates libsodiumRates = libsodium.map(r -> new BenchResult.RawRates(libsodiumBefore.get(),
                    measure(r, streamThreads, Duration.ZERO))).orElse(null);
            BenchResult.Shape ran = new BenchResult.Shape(workload.entries().size(), identities, shape.devices, streamThreads, local.partitions);
            BenchResult.WarmUp warmedUp = warmUp == null ? null : new BenchResult.WarmUp(warmUp.entries().size(), run.warmUpSeconds());
            BenchResult result = new BenchResult(ran, verifier, warmedUp, run.timed(), bouncyCastleRates, libsodiumRates,
                    new BenchResult.Writes(run.writes(), ran.entries() + (warmedUp == null ? 0 : warmedUp.entries())));
            result.print(spec.commandLine().getOut());
            if (floor) {
                // After the service and its second raw measurement, so that --floor changes nothing of what they measure.
                err.println("bench: running the framework floor over the same records ...");
                Prepared prepared = run.prepared();
                FrameworkFloor.run(stack, prepared.config(), prepared.registry(),
                        new FrameworkFloor.Input(prepared.produced().warmUp(), prepared.produced().timed()), err).print(spec.commandLine().getOut(), result);
            }
        }
        return 0;
    }

    /** The verifier the service will use (the same choice: one per process). */
    private static BenchResult.Verifier chosenVerifier() {
        Verifiers.Choice choice = Verifiers.fastest();
        return new BenchResult.Verifier(choice.verifier().name(), choice.reason());
    }

    /** libsodium's raw loop, when the service verifies with it. */
    private static Optional<RawVerifyRate> libsodiumRate(Workload.Generated workload) {
        if (!(Verifiers.fastest().verifier() instanceof NativeFirstVerifier nativeFirst)) {
            return Optional.empty();
        }
        return Optional.of(new RawVerifyRate(workload, (signature, key, message) -> nativeFirst.libsodiumAccepts(key, message, signature)));
    }

    private static double measure(RawVerifyRate rate, int threads, Duration untimed) {
        try {
            return rate.measure(threads, untimed, Duration.ofSeconds(5));
        } catch (Exception e) {
            throw new IllegalStateException("the raw verify loop failed", e);
        }
    }

    /** The timed part, the seconds from service start to the end of the warm-up, what the whole run wrote, and what it ran on. */
    private record Run(BenchResult.Timed timed, double warmUpSeconds, List<TopicWrites.Written> writes, Prepared prepared) {}

    /**
     * Produces warm-up and timed records, then starts the service and times it through the timed ones; marks the
     * topics before producing, so that what the whole run wrote is counted.
     */
    private Run runService(LocalStack stack, Workload.Generated workload, Workload.Generated warmUp, int streamThreads,
            PrintWriter err) throws Exception {
        String applicationId = "jolt-bench-" + System.currentTimeMillis();
        JoltConfig config = LocalRuns.prepare(stack, applicationId, "target/bench-state", local.partitions, streamThreads);
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        try (Admin admin = Admin.create(config.adminProperties())) {
            TopicWrites writes = new TopicWrites(admin, stack.bootstrap(), applicationId);
            TopicWrites.Mark before = writes.mark();
            Produced produced = produce(stack, registry, warmUp, workload, err);
            return timeService(new Prepared(applicationId, config, registry, produced), stack, err, writes, before);
        }
    }

    /** A run ready to start: the service's application id and configuration, its registry, the records produced for it. */
    private record Prepared(String applicationId, JoltConfig config, InMemorySchemaRegistry registry, Produced produced) {}

    private Run timeService(Prepared prepared, LocalStack stack, PrintWriter err, TopicWrites writes, TopicWrites.Mark before) throws Exception {
        String applicationId = prepared.applicationId();
        JoltConfig config = prepared.config();
        InMemorySchemaRegistry registry = prepared.registry();
        Produced produced = prepared.produced();
        long warmUpRecords = produced.warmUp();
        long records = produced.timed();
        long t1 = System.nanoTime();
        try (JoltService<KafkaBolt> service = JoltService.start(config, registry, () -> new KafkaBolt(config.boltProducerProperties(), registry));
                TopicReader reader = new TopicReader(stack.bootstrap())) {
            service.awaitRunning(Duration.ofMinutes(2));
            CpuUse running = CpuUse.now(stack.brokerProcess());
            LocalRuns.Processed warmedUp = warmUpRecords == 0 ? null
                    : LocalRuns.awaitProcessed(reader, applicationId, 0, warmUpRecords, "warming up", err, running, stack.brokerProcess());
            double warmUpSeconds = (System.nanoTime() - t1) / 1e9;
            CpuUse timedFrom = CpuUse.now(stack.brokerProcess());
            long signaturesBefore = SignatureCheck.computed();
            long keysBefore = PublicKey.keyChecksComputed();
            LocalRuns.Processed timed = LocalRuns.awaitProcessed(reader, applicationId, warmUpRecords, records, "processing", err, running,
                    stack.brokerProcess());
            CpuUse.Cores cores = CpuUse.now(stack.brokerProcess()).since(timedFrom);
            LocalRuns.Processed firstMinute = warmedUp != null ? warmedUp : timed;
            // Without a warm-up the timed part runs from service start, cold start included.
            double seconds = warmedUp != null ? timed.seconds() : (System.nanoTime() - t1) / 1e9;
            BenchResult.Timed timedPart = new BenchResult.Timed(records, seconds, firstMinute.firstMinuteRate(), firstMinute.firstMinuteCores(),
                    SignatureCheck.computed() - signaturesBefore, PublicKey.keyChecksComputed() - keysBefore, processorCounters(service), cores);
            err.println("bench: waiting for the analytics to finish, then reading back what the run wrote ...");
            TopicWrites.Mark after = writes.markWhenQuiet(Duration.ofSeconds(3), Duration.ofMinutes(2));
            return new Run(timedPart, warmUpSeconds, writes.between(before, after), prepared);
        }
    }

    /** How many records were produced: warm-up, then timed. */
    private record Produced(long warmUp, long timed) {}

    /** Produces the warm-up records, then the timed ones (so every partition reaches the timed records after them). */
    private static Produced produce(LocalStack stack, InMemorySchemaRegistry registry, Workload.Generated warmUp, Workload.Generated workload,
            PrintWriter err) {
        long t0 = System.nanoTime();
        try (RecordIngest ingest = new RecordIngest(stack.bootstrap(), registry)) {
            long warmUpRecords = warmUp == null ? 0 : LocalRuns.ingest(ingest, warmUp);
            long records = LocalRuns.ingest(ingest, workload);
            err.printf("bench: produced %,d records (%,d of them warm-up) in %.1f s%n", records + warmUpRecords, warmUpRecords,
                    (System.nanoTime() - t0) / 1e9);
            return new Produced(warmUpRecords, records);
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
