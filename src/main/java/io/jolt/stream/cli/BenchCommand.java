package io.jolt.stream.cli;

import io.jolt.stream.kafka.TopicSchemas;
import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.kafka.JoltConfig;
import io.jolt.stream.kafka.JoltService;
import io.jolt.stream.kafka.RecordIngest;
import io.jolt.stream.kafka.TopicGuard;
import io.jolt.stream.kafka.TopicReader;
import io.jolt.stream.kafka.Topics;
import io.jolt.stream.kafka.serde.InMemorySchemaRegistry;
import io.jolt.stream.protocol.AuthorityAction;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.PublicKey;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int streamThreads = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        int identities = Math.max(1, (int) Math.ceil(entries / (double) (devices * entriesPerDevice)));

        Workload.Generated workload = LocalRuns.generate(new Workload.Shape(identities, devices, entriesPerDevice, 11), err);
        int warmUpIdentities = (int) Math.ceil(warmUpEntries / (double) (devices * entriesPerDevice));
        Workload.Generated warmUp = warmUpIdentities == 0 ? null
                : LocalRuns.generate(new Workload.Shape(warmUpIdentities, devices, entriesPerDevice, 12), err);

        err.println("bench: measuring the raw BouncyCastle verify rate with " + streamThreads + " thread(s) ...");
        // The first measurement runs after an untimed 5 s, so that the JIT has compiled the verify loop (C2 takes seconds).
        double rawBefore = rawVerifyRate(workload, streamThreads, Duration.ofSeconds(5), Duration.ofSeconds(5));

        LocalBroker broker = null;
        try {
            if (bootstrap == null) {
                broker = LocalBroker.start("bench");
                bootstrap = broker.bootstrapServers();
            }
            String applicationId = "jolt-bench-" + System.currentTimeMillis();
            Path stateDir = Files.createDirectories(LocalBroker.home().resolve("target/bench-state").resolve(applicationId));
            JoltConfig config = LocalRuns.config(bootstrap, applicationId, stateDir, partitions, streamThreads);
            try (Admin admin = Admin.create(config.adminProperties())) {
                TopicGuard.ensure(admin, Topics.load(partitions, null));
            }
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            long records;
            long warmUpRecords = 0;
            long t0 = System.nanoTime();
            try (RecordIngest ingest = new RecordIngest(bootstrap, registry)) {
                // The warm-up records go first, so every partition reaches the timed records after them.
                if (warmUp != null) {
                    warmUpRecords = LocalRuns.ingest(ingest, warmUp);
                }
                records = LocalRuns.ingest(ingest, workload);
            }
            double produceSeconds = (System.nanoTime() - t0) / 1e9;
            err.printf("bench: produced %,d records (%,d of them warm-up) in %.1f s%n", records + warmUpRecords, warmUpRecords, produceSeconds);

            Map<String, Double> counters;
            long checksTimed;
            Optional<ProcessHandle> brokerProcess = broker == null ? Optional.empty() : broker.process();
            CpuUse.Cores cores;
            long t1 = System.nanoTime();
            double warmUpSeconds = 0;
            try (JoltService<KafkaBolt> service = JoltService.start(config, registry, new KafkaBolt(config.adminProperties(), registry));
                    TopicReader reader = new TopicReader(bootstrap)) {
                if (warmUpRecords > 0) {
                    LocalRuns.awaitProcessed(reader, applicationId, 0, warmUpRecords, "warming up", err);
                    warmUpSeconds = (System.nanoTime() - t1) / 1e9;
                }
                CpuUse timedFrom = CpuUse.now(brokerProcess);
                long checksBefore = PublicKey.checksComputed();
                LocalRuns.awaitProcessed(reader, applicationId, warmUpRecords, records, "processing", err);
                cores = CpuUse.now(brokerProcess).since(timedFrom);
                counters = processorCounters(service);
                checksTimed = PublicKey.checksComputed() - checksBefore;
            }
            double totalSeconds = (System.nanoTime() - t1) / 1e9;
            // Measured again once the service has stopped, and averaged: the machine's speed drifts within a run.
            err.println("bench: measuring the raw BouncyCastle verify rate again ...");
            double rawAfter = rawVerifyRate(workload, streamThreads, Duration.ZERO, Duration.ofSeconds(5));
            double rawRate = (rawBefore + rawAfter) / 2;
            double seconds = totalSeconds - warmUpSeconds;
            double rate = workload.entries().size() / seconds;
            out.printf("%njolt bench: %,d entries (%,d identities x %d devices), %d stream thread(s), %d partitions, exactly once%n",
                    workload.entries().size(), identities, devices, streamThreads, partitions);
            if (warmUp != null) {
                out.printf("  warm-up             %,d entries of other identities in %.1f s from service start (not timed)%n",
                        warmUp.entries().size(), warmUpSeconds);
            }
            out.printf("  end to end          %,.0f entries/s  (%,d records in %.1f s, %s to all committed)%n",
                    rate, records, seconds, warmUp != null ? "from the end of the warm-up" : "from service start");
            out.printf("  raw Ed25519 verify  %,.0f verifies/s with %d thread(s)  (BouncyCastle, same run: %,.0f before, %,.0f after)%n",
                    rawRate, streamThreads, rawBefore, rawAfter);
            out.printf("ratio: %.2f%n", rate / rawRate);
            // Each raw verify costs threads/rawRate seconds of one core: what the service's checks cost too, at best.
            double signatureCores = checksTimed * (streamThreads / rawRate) / cores.seconds();
            out.printf("  cpu, timed part     service %.2f cores (stream threads %.2f, JIT %.2f), broker %s: %.2f of the machine's %d cores%n",
                    cores.service(), cores.streamThreads(), cores.jit(), cores.broker().map(b -> String.format("%.2f", b)).orElse("not local, not counted"),
                    cores.total(), Runtime.getRuntime().availableProcessors());
            out.printf("  Ed25519             %.2f cores (%,d signature and key checks x %.0f µs, the raw loop's cost): %.0f%% of the CPU used%n",
                    signatureCores, checksTimed, streamThreads / rawRate * 1e6, 100 * signatureCores / cores.total());
            StringBuilder work = new StringBuilder();
            counters.forEach((k, v) -> {
                if (v > 0) {
                    work.append(String.format("%s=%,.0f ", k, v));
                }
            });
            out.printf("  processor           %s%n", work.toString().strip());
            out.flush();
            return 0;
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /** The processor's counters, summed over tasks (a reason tag kept in the name). */
    private static Map<String, Double> processorCounters(JoltService<?> service) {
        Map<String, Double> counters = new java.util.TreeMap<>();
        service.streams().metrics().forEach((name, metric) -> {
            if (name.group().equals(io.jolt.stream.kafka.ProcessorMetrics.GROUP)) {
                counters.merge(name.name() + (name.tags().containsKey("reason") ? "{" + name.tags().get("reason") + "}" : ""),
                        ((Number) metric.metricValue()).doubleValue(), Double::sum);
            }
        });
        return counters;
    }

    /** BouncyCastle's Ed25519 verify over the workload's own entries, keys given as bytes, on {@code threads} threads. */
    static double rawVerifyRate(Workload.Generated workload, int threads, Duration untimed, Duration timed) throws Exception {
        System.gc(); // what generating the workload left behind is collected now, not while the loop is timed
        if (!untimed.isZero()) {
            verifyFor(workload, threads, untimed);
        }
        return verifyFor(workload, threads, timed);
    }

    private static double verifyFor(Workload.Generated workload, int threads, Duration duration) throws Exception {
        Map<String, byte[]> keys = new HashMap<>();
        for (AuthorityRecord r : workload.authority()) {
            if (r.body().action() instanceof AuthorityAction.Authorize a) {
                keys.put(r.body().identity() + "/" + a.deviceId(), a.devicePublicKey());
            }
        }
        List<Entry> sample = workload.entries().stream().filter(e -> keys.containsKey(e.body().identity() + "/" + e.deviceId()))
                .limit(20_000).toList();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long deadline = System.nanoTime() + duration.toNanos();
            List<Future<Long>> counts = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                counts.add(pool.submit(() -> {
                    long n = 0;
                    for (int i = offset; System.nanoTime() < deadline; i = (i + 1) % sample.size()) {
                        Entry e = sample.get(i);
                        byte[] body = e.bodyBytes();
                        Ed25519.verify(e.signature(), 0, keys.get(e.body().identity() + "/" + e.deviceId()), 0, body, 0, body.length);
                        n++;
                    }
                    return n;
                }));
            }
            long total = 0;
            for (Future<Long> c : counts) {
                total += c.get();
            }
            return total / (duration.toNanos() / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }
}
