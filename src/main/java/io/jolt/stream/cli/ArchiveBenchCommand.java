package io.jolt.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.archive.KafkaBolt;
import io.jolt.stream.archive.replay.ArchiveReplay;
import io.jolt.stream.archive.service.ArchiveService;
import io.jolt.stream.bench.ArchiveBenchFeed;
import io.jolt.stream.bench.ArchiveBenchResult;
import io.jolt.stream.local.CpuUse;
import io.jolt.stream.local.LocalBroker;
import io.jolt.stream.local.LocalRuns;
import io.jolt.stream.local.LocalStack;
import io.jolt.stream.local.ProgressBar;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltService;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"What one identity's history and as-of state cost as the archive grows: the live service archives a",
            "workload, which is then written to two archive topics, as it is and --scale times larger (copies under other",
            "names), the probe identity's operations spread through each. Both are indexed by an archive service and asked",
            "alternately: through the service, through jolt replay (with and without it), and by a full scan, the baseline."})
final class ArchiveBenchCommand implements Callable<Integer> {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--entries", defaultValue = "10000", description = "Entries of the workload the live service archives (default ${DEFAULT-VALUE}).")
    int entries;

    @Option(names = "--scale", defaultValue = "100", description = "How many times larger the large archive is (default ${DEFAULT-VALUE}).")
    int scale;

    @Option(names = "--repeat", defaultValue = "15",
            description = "Timed repeats of each question, after untimed ones (default ${DEFAULT-VALUE}; scans of a partition or the whole archive: at most 3).")
    int repeat;

    @CommandLine.Mixin
    WorkloadShapeOptions shape;

    @CommandLine.Mixin
    LocalRunOptions local;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Workload.Generated workload = LocalRuns.generate(shape.shape(Math.max(1, shape.identitiesFor(entries)), 21), err);
        try (LocalStack stack = LocalStack.start("archive bench", local.bootstrap, err)) {
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            ArchiveBenchFeed feed = new ArchiveBenchFeed(bolted(stack, workload, registry, err), registry);
            Archive small = stack.open(archive(stack, feed, SMALL_TOPIC, 1, registry, err));
            Archive large = stack.open(archive(stack, feed, LARGE_TOPIC, scale, registry, err));
            agree(small, stack.bootstrap(), feed.probe());
            agree(large, stack.bootstrap(), feed.probe());
            ArchiveBenchResult result = new ArchiveBenchResult(feed.probe(), feed.probeOperations(), small.described(), large.described(),
                    timeSideBySide(questions(small, stack.bootstrap(), feed.probe(), registry), questions(large, stack.bootstrap(), feed.probe(), registry), err));
            result.print(spec.commandLine().getOut());
            return result.targetMet() ? 0 : 1;
        }
    }

    static final String SMALL_TOPIC = "jolt.archive.bench-small";
    static final String LARGE_TOPIC = "jolt.archive.bench-large";

    /** Runs the live service over the workload and returns what its bolt archived. */
    private List<ConsumerRecord<String, byte[]>> bolted(LocalStack stack, Workload.Generated workload, InMemorySchemaRegistry registry,
            PrintWriter err) throws Exception {
        String applicationId = "jolt-archive-bench-live-" + System.currentTimeMillis();
        JoltConfig config = LocalRuns.prepare(stack, applicationId, "target/archive-bench-state", local.partitions, local.streamThreads());
        try (JoltService<KafkaBolt> service = JoltService.start(config, registry, () -> new KafkaBolt(config.boltProducerProperties(), registry));
                RecordIngest ingest = new RecordIngest(stack.bootstrap(), registry);
                TopicReader reader = new TopicReader(stack.bootstrap())) {
            service.awaitRunning(Duration.ofMinutes(2));
            CpuUse running = CpuUse.now(stack.brokerProcess());
            long records = LocalRuns.ingest(ingest, workload);
            LocalRuns.awaitProcessed(reader, applicationId, 0, records, "bolting", err, running, stack.brokerProcess());
            service.bolt().flush();
        }
        List<ConsumerRecord<String, byte[]>> bolted = new ArrayList<>();
        TopicReader.readToEnd(stack.bootstrap(), Topics.ARCHIVE, new StringDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(2),
                bolted::add);
        err.printf("archive bench: the live service archived %,d operations of %,d entries%n", bolted.size(), workload.entries().size());
        return bolted;
    }

    /** An archive topic as the bench wrote it, and the archive service that indexed it. */
    private record Archive(String topic, long operations, double indexSeconds, ArchiveService service) implements AutoCloseable {
        ArchiveBenchResult.Archive described() {
            return new ArchiveBenchResult.Archive(operations, indexSeconds);
        }

        @Override
        public void close() {
            service.close();
        }
    }

    /** Writes an archive of {@code copies} copies to {@code topic} (configured as jolt.archive.v2) and indexes it. */
    private Archive archive(LocalStack stack, ArchiveBenchFeed feed, String topic, int copies, InMemorySchemaRegistry registry, PrintWriter err)
            throws Exception {
        err.printf("archive bench: %s, an archive of %,d operations ...%n", topic, feed.size(copies));
        Topics.Spec archive = Topics.load(local.partitions, null).stream().filter(s -> s.name().equals(Topics.ARCHIVE)).findFirst().orElseThrow();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrap()))) {
            Properties producer = new Properties();
            producer.setProperty("bootstrap.servers", stack.bootstrap());
            feed.write(admin, new Topics.Spec(topic, archive.partitions(), archive.replication(), archive.config()), producer, copies, err);
        }
        String applicationId = "jolt-archive-bench-" + copies + "-" + System.currentTimeMillis();
        Path state = Files.createDirectories(LocalBroker.home().resolve("target/archive-bench-state").resolve(applicationId));
        long started = System.nanoTime();
        ArchiveService service = ArchiveService.start(new ArchiveService.Settings(stack.bootstrap(), topic, applicationId, state, "127.0.0.1", 0,
                new Properties(), ArchiveService.Settings.DEFAULT_READY_MAX_LAG), registry);
        try {
            service.awaitRunning(Duration.ofMinutes(2));
            awaitIndexed(service, err);
        } catch (Exception e) {
            service.close();
            throw e;
        }
        return new Archive(topic, feed.size(copies), (System.nanoTime() - started) / 1e9, service);
    }

    private static void awaitIndexed(ArchiveService service, PrintWriter err) throws Exception {
        ProgressBar bar = new ProgressBar(err, "indexing");
        while (true) {
            JsonNode status = JSON.readTree(get(service.baseUrl() + "/v1/archive/status"));
            bar.update(status.get("indexed_up_to").asLong(), status.get("archive_end").asLong(), "operations indexed");
            if (status.get("caught_up").asBoolean()) {
                bar.finish();
                return;
            }
            Thread.sleep(500);
        }
    }

    /** The service and a replay of the partition must give the same state, or the timings mean nothing. */
    private static void agree(Archive archive, String bootstrap, String probe) throws Exception {
        String time = String.valueOf(middle(archive, probe).get("archive_time").asLong());
        String viaService = replay("replay", "--archive-service", archive.service().baseUrl(), "--identity", probe, "--mode", "state", "--until-time", time);
        String viaPartition = replay("replay", "--bootstrap", bootstrap, "--topic", archive.topic(), "--identity", probe,
                "--mode", "state", "--until-time", time);
        if (!viaService.equals(viaPartition)) {
            throw new IllegalStateException("the archive service and a replay of " + archive.topic() + " disagree on " + probe + " as of " + time
                    + ":\n" + viaService + "\n" + viaPartition);
        }
    }

    /** The probe's middle operation, as the service's history lists it. */
    private static JsonNode middle(Archive archive, String probe) throws Exception {
        JsonNode operations = JSON.readTree(get(archive.service().baseUrl() + "/v1/archive/identities/" + probe + "/history")).get("operations");
        return operations.get(operations.size() / 2);
    }

    /** One way of asking one archive; {@code indexed} when it is answered from the index. */
    private record Timed(String what, boolean indexed, Question question) {}

    private static List<Timed> questions(Archive archive, String bootstrap, String probe, InMemorySchemaRegistry registry) throws Exception {
        String base = archive.service().baseUrl() + "/v1/archive/identities/" + probe;
        JsonNode middle = middle(archive, probe);
        long offset = middle.get("archive_offset").asLong();
        String time = String.valueOf(middle.get("archive_time").asLong());
        String[] viaService = {"replay", "--archive-service", archive.service().baseUrl(), "--identity", probe};
        String[] viaPartition = {"replay", "--bootstrap", bootstrap, "--topic", archive.topic(), "--identity", probe};
        String[] stateAsOf = {"--mode", "state", "--until-time", time};
        return List.of(
                new Timed("archive service: history", true, () -> get(base + "/history")),
                new Timed("archive service: state as of an offset", true, () -> get(base + "/state?as_of_offset=" + offset)),
                new Timed("archive service: state as of a time", true, () -> get(base + "/state?as_of_time=" + time)),
                new Timed("jolt replay --archive-service: history", true, () -> replay(viaService)),
                new Timed("jolt replay --archive-service: state --until-time", true, () -> replay(concat(viaService, stateAsOf))),
                new Timed("jolt replay (the key's partition): history", false, () -> replay(viaPartition)),
                new Timed("jolt replay (the key's partition): state --until-time", false, () -> replay(concat(viaPartition, stateAsOf))),
                new Timed("full scan (every partition, the old replay): history", false,
                        () -> new ArchiveReplay(bootstrap, archive.topic(), registry).history(probe, null, null, null, true)));
    }

    /**
     * Each question of the small archive and of the large one, alternately, so that the machine's
     * drift and the JIT touch both alike: warm-up rounds first (untimed), then the timed repeats,
     * of which the medians are kept. Questions that read without the index repeat at most 3 times.
     */
    private List<ArchiveBenchResult.Row> timeSideBySide(List<Timed> small, List<Timed> large, PrintWriter err) throws Exception {
        ProgressBar bar = new ProgressBar(err, "asking");
        List<ArchiveBenchResult.Row> rows = new ArrayList<>();
        for (int q = 0; q < small.size(); q++) {
            bar.update(q, small.size(), "questions timed");
            Timed s = small.get(q);
            Timed l = large.get(q);
            int times = s.indexed() ? repeat : Math.min(repeat, 3);
            for (int i = 0; i < (s.indexed() ? WARM_UP_ROUNDS : 1); i++) {
                s.question().ask();
                l.question().ask();
            }
            double[] smallMs = new double[times];
            double[] largeMs = new double[times];
            for (int i = 0; i < times; i++) {
                smallMs[i] = millis(s.question());
                largeMs[i] = millis(l.question());
            }
            rows.add(new ArchiveBenchResult.Row(s.what(), median(smallMs), median(largeMs), s.indexed()));
        }
        bar.update(small.size(), small.size(), "questions timed");
        bar.finish();
        return rows;
    }

    /** Untimed rounds of each indexed question before it is timed: the JIT compiles the fetch path in about that many. */
    static final int WARM_UP_ROUNDS = 20;

    private interface Question {
        Object ask() throws Exception;
    }

    private static double millis(Question question) throws Exception {
        long t0 = System.nanoTime();
        question.ask();
        return (System.nanoTime() - t0) / 1e6;
    }

    private static double median(double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer.body();
    }

    private static String replay(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = JoltCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        int exit = cli.execute(args);
        if (exit != 0) {
            throw new IllegalStateException("jolt " + String.join(" ", args) + " exited " + exit);
        }
        return out.toString();
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
