package io.jolt.stream.cli;

import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.bench.SoakFeed;
import io.jolt.stream.bench.SoakReport;
import io.jolt.stream.bench.SoakSample;
import io.jolt.stream.local.LocalRuns;
import io.jolt.stream.local.LocalStack;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltService;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Offered load at a fixed rate for a number of minutes (fresh identities all along) through a real broker and the",
            "service, with the heap's live set, the process's resident memory, RocksDB's memory and the consumer lag sampled every",
            "few seconds; prints each sample and, at the end, each one's slope after the warm-up. A leak is a slope that stays positive."})
final class SoakCommand implements Callable<Integer> {
    @Option(names = "--minutes", defaultValue = "20", description = "How long to offer load (default ${DEFAULT-VALUE}).")
    double minutes;

    @Option(names = "--rate", defaultValue = "2000", description = "Input records per second offered (default ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--sample-seconds", defaultValue = "10", description = "Seconds between samples (default ${DEFAULT-VALUE}).")
    double sampleSeconds;

    @Option(names = "--warm-up-minutes", defaultValue = "2", description = "Minutes left out of the slopes (default ${DEFAULT-VALUE}).")
    double warmUpMinutes;

    @CommandLine.Mixin
    LocalRunOptions local;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String applicationId = "jolt-soak-" + System.currentTimeMillis();
        try (LocalStack stack = LocalStack.start("soak", local.bootstrap, err)) {
            JoltConfig config = LocalRuns.prepare(stack, applicationId, "target/soak-state", local.partitions, local.streamThreads());
            Path stateDir = Path.of(config.get("state.dir"));
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            JoltService<KafkaBolt> service = stack.open(JoltService.start(config, registry,
                    () -> new KafkaBolt(config.boltProducerProperties(), registry)));
            service.awaitRunning(Duration.ofMinutes(2));
            RecordIngest ingest = stack.open(new RecordIngest(stack.bootstrap(), registry));
            out.printf("jolt soak: %,.0f records/s offered for %.1f min (fresh identities, %d per chunk), %d partitions, a sample every %.0f s%n",
                    rate, minutes, SoakFeed.CHUNK_IDENTITIES, local.partitions, sampleSeconds);
            return soak(applicationId, stack, ingest, stateDir, out);
        }
    }

    private int soak(String applicationId, LocalStack stack, RecordIngest ingest, Path stateDir, PrintWriter out) throws Exception {
        List<SoakSample> samples = new ArrayList<>();
        long start = System.nanoTime();
        try (SoakFeed feed = new SoakFeed(ingest, rate).start(); TopicReader reader = new TopicReader(stack.bootstrap())) {
            SoakReport.header(out);
            double elapsed = 0;
            while (elapsed < minutes && feed.failure() == null) {
                Thread.sleep((long) (sampleSeconds * 1000));
                elapsed = (System.nanoTime() - start) / 60e9;
                TopicReader.Progress progress = reader.progress(applicationId);
                SoakSample sample = SoakSample.now(elapsed, progress.total(), progress.processed(), stateDir);
                samples.add(sample);
                SoakReport.line(out, sample);
            }
            SoakReport.slopes(out, samples, warmUpMinutes);
            SoakSample last = samples.get(samples.size() - 1);
            out.printf("offered %,.0f records/s; sent %,d (%,d sent again after a refusal), processed %,.0f records/s on average%n", rate,
                    feed.sent(), feed.resent(), last.processed() / (last.minutes() * 60));
            if (feed.failure() != null) {
                out.println("jolt soak: stopped early, a record could not be produced twice: " + feed.failure());
                return 1;
            }
        }
        return 0;
    }
}
