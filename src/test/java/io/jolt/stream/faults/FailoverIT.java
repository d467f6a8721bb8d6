package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.workload.Workload;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failover, measured: how long after kill -9 of the instance that owns an identity the cluster
 * answers that identity again, with a standby of every task and without, and how fast a store
 * comes back from its changelog. Two instances share the partitions; the killed one's identities
 * are asked of the survivor every 100 ms until each is answered, and each answer must be the
 * one the killed instance gave just before (the input was all processed by then).
 *
 * <p>First the state is built with a standby of every task, and instance A is killed: its tasks
 * move to B's standbys. Then, on fresh state directories and without standbys, a new A restores
 * every store from the changelogs alone (the restore rate), a new B joins and takes half, and A is
 * killed again: B must now restore A's half before it can answer. The size is {@code
 * -Djolt.failover.entries} (default 30,000, seconds of state; about 2,800,000 give each instance
 * more than 1 GB of changelog to own), the session timeout {@code -Djolt.failover.session.ms}.
 * Figures are printed, not asserted: testing.md keeps them.
 */
@ExtendWith(RealKafka.class)
class FailoverIT {
    static final String APPLICATION = "jolt-it-failover";
    static final int PARTITIONS = 4;
    static final long ENTRIES = Long.getLong("jolt.failover.entries", 30_000);
    static final String SESSION_MS = String.valueOf(Long.getLong("jolt.failover.session.ms", 10_000));
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    @Test
    void theSurvivorAnswersTheKilledInstancesIdentitiesWithAndWithoutStandbys(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (Admin admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(PARTITIONS, null));
        }
        // No state dir here: each Instance is started on one of its own.
        ForkedService.Settings common = ForkedService.settings(broker.bootstrapServers(), APPLICATION, null, PARTITIONS).with(Map.of("session.timeout.ms", SESSION_MS, "probing.rebalance.interval.ms", "60000",
                        JoltConfig.HTTP_FORWARD_TIMEOUT_MS, "1000"));
        ForkedService.Settings standby = common.with(Map.of("num.standby.replicas", "1"));
        ForkedService.Settings none = common.with(Map.of("num.standby.replicas", "0"));
        List<Row> rows = new ArrayList<>();

        Instance a = Instance.start("failover-a1", standby);
        Instance b = Instance.start("failover-b1", standby);
        a.service().awaitRunning(Duration.ofSeconds(120));
        b.service().awaitRunning(Duration.ofSeconds(120));
        Map<Integer, String> probes = load(broker.bootstrapServers(), harness);
        Thread.sleep(5_000); // the standbys apply the last changelog writes
        rows.add(killAndAwait("1", a, b.service(), probes, broker));
        b.service().stop();

        long started = System.nanoTime();
        a = Instance.start("failover-a2", none);
        Restore restore = awaitRunning(a.service(), started);
        Changelogs all = Changelogs.of(broker, Set.of(0, 1, 2, 3));
        System.out.printf("[failover] restore: a fresh instance restored every store (%s) in %s; RUNNING %.1f s after its JVM started%n",
                all, restore.seconds() > 0 ? String.format("%.1f s, %.0f MB/s, %,.0f records/s", restore.seconds(), all.bytes() / 1e6
                        / restore.seconds(), all.records() / restore.seconds()) : "less than the probe's 200 ms", restore.running());
        b = Instance.start("failover-b2", none);
        awaitSplit(a.service(), b.service(), probes);
        rows.add(killAndAwait("0", a, b.service(), probes, broker));
        b.service().stop();

        System.out.printf("[failover] | standbys | the killed instance's changelogs | its state dir | session timeout | survivor left RUNNING | "
                + "answered every identity again | survivor restoring |%n");
        rows.forEach(r -> System.out.println("[failover] " + r));
    }

    /** A service and the state directory it was given. */
    record Instance(ForkedService service, Path stateDir) {
        static Instance start(String name, ForkedService.Settings settings) throws Exception {
            Path dir = StreamHarness.tempStateDir(name);
            return new Instance(ForkedService.start(name, settings.onStateDir(dir)), dir);
        }
    }

    /** How long the readiness probe said "restoring" (0: never seen, under a poll), and when the service was ready, in seconds from its start. */
    record Restore(double seconds, double running) {}

    private static Restore awaitRunning(ForkedService s, long started) throws Exception {
        double from = -1;
        double until = -1;
        long deadline = started + Duration.ofMinutes(30).toNanos();
        while (true) {
            assertThat(System.nanoTime()).as("RUNNING within 30 minutes").isLessThan(deadline);
            double now = (System.nanoTime() - started) / 1e9;
            String ready = ready(s);
            if (ready.contains("restoring")) {
                from = from < 0 ? now : from;
                until = now;
            } else if (ready.contains("\"ready\"")) {
                return new Restore(from < 0 ? 0 : until - from, now);
            }
            Thread.sleep(200);
        }
    }

    /** What one kill measured: times from the kill, in seconds. */
    record Row(String standbys, Changelogs owned, long stateDirBytes, double leftRunning, double answered, double restoring) {
        @Override
        public String toString() {
            return String.format("| %s | %s | %,.0f MB | %s ms | %.1f s | %.1f s | %s |", standbys, owned, stateDirBytes / 1e6, SESSION_MS,
                    leftRunning, answered, restoring > 0 ? String.format("%.1f s", restoring) : "none seen");
        }
    }

    /** The changelog partitions of some input partitions: records (offsets) and bytes on the broker. */
    record Changelogs(long records, long bytes) {
        static Changelogs of(KafkaBroker broker, Set<Integer> partitions) throws Exception {
            try (Admin admin = broker.admin()) {
                List<TopicPartition> tps = new ArrayList<>();
                for (String topic : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
                    if (topic.startsWith(APPLICATION + "-") && topic.endsWith("-changelog")) {
                        partitions.forEach(p -> tps.add(new TopicPartition(topic, p)));
                    }
                }
                Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
                tps.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
                long records = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).values().stream().mapToLong(i -> i.offset()).sum();
                long bytes = 0;
                List<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(n -> n.id()).toList();
                for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()) {
                    for (LogDirDescription dir : dirs.values()) {
                        bytes += dir.replicaInfos().entrySet().stream().filter(e -> tps.contains(e.getKey())).mapToLong(e -> e.getValue().size()).sum();
                    }
                }
                return new Changelogs(records, bytes);
            }
        }

        @Override
        public String toString() {
            return String.format("%,d records, %,.0f MB", records, bytes / 1e6);
        }
    }

    /**
     * Produces fresh identities (the demo's workload shape) until {@link #ENTRIES} entries are in,
     * waits until they are processed, and returns one identity of each partition.
     */
    private static Map<Integer, String> load(String bootstrap, StreamHarness harness) throws Exception {
        Map<Integer, String> probes = new ConcurrentHashMap<>();
        long entries = 0;
        long started = System.nanoTime();
        try (RecordIngest ingest = new RecordIngest(bootstrap, TopicSchemas.seededRegistry())) {
            for (long seed = 1; entries < ENTRIES; seed++) {
                Workload.Generated chunk = Workload.generate(new Workload.Shape(100, 3, 10, seed), n -> { });
                chunk.authority().forEach(r -> send(ingest, ingest.authority(r), probes));
                chunk.entries().forEach(e -> send(ingest, ingest.entry(e), probes));
                long before = entries;
                entries += chunk.entries().size();
                if (entries * 10 / ENTRIES > before * 10 / ENTRIES) {
                    System.out.printf("[failover] produced %,d entries (%.0f s)%n", entries, (System.nanoTime() - started) / 1e9);
                }
            }
            ingest.flush();
        }
        harness.awaitProcessed(APPLICATION, Duration.ofSeconds(120 + ENTRIES / 1_000));
        System.out.printf("[failover] %,d entries processed %.0f s after the first was produced%n", entries, (System.nanoTime() - started) / 1e9);
        assertThat(probes).as("an identity in each partition").hasSize(PARTITIONS);
        return new TreeMap<>(probes);
    }

    private static void send(RecordIngest ingest, ProducerRecord<String, byte[]> record, Map<Integer, String> probes) {
        ingest.send(record, (metadata, error) -> {
            if (error != null) {
                throw new IllegalStateException("the load could not be produced", error);
            }
            probes.putIfAbsent(metadata.partition(), record.key());
        });
    }

    /** Until each of the two owns some partitions: a new instance warms up first, then a probing rebalance gives it its share. */
    private static void awaitSplit(ForkedService a, ForkedService b, Map<Integer, String> probes) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (owned(a, probes).isEmpty() || owned(b, probes).isEmpty()) {
            assertThat(System.nanoTime()).as("the second instance took a share within 30 minutes").isLessThan(deadline);
            Thread.sleep(1_000);
        }
    }

    /** The partitions whose probe identity the instance answers from its own stores (asked as a peer would, so it does not forward). */
    private static Set<Integer> owned(ForkedService s, Map<Integer, String> probes) {
        Set<Integer> own = new java.util.TreeSet<>();
        probes.forEach((partition, identity) -> {
            if (ask(s, identity, true).statusCode() == 200) {
                own.add(partition);
            }
        });
        return own;
    }

    /**
     * Kills {@code killed} with SIGKILL and asks {@code survivor} for each identity the killed one
     * owned, every 100 ms, until it answers what the killed one answered before.
     */
    private static Row killAndAwait(String standbys, Instance instance, ForkedService survivor, Map<Integer, String> probes,
            KafkaBroker broker) throws Exception {
        ForkedService killed = instance.service();
        Set<Integer> partitions = owned(killed, probes);
        assertThat(partitions).as("the instance to kill owns partitions").isNotEmpty();
        Map<Integer, String> before = new TreeMap<>();
        partitions.forEach(p -> before.put(p, ask(killed, probes.get(p), false).body()));
        Changelogs owned = Changelogs.of(broker, partitions);
        long stateDir = sizeOf(instance.stateDir());
        killed.kill();
        long killedAt = System.nanoTime();
        double leftRunning = -1;
        double restoringFrom = -1;
        double restoringUntil = -1;
        Map<Integer, Double> answered = new TreeMap<>();
        while (answered.size() < partitions.size()) {
            assertThat(System.nanoTime() - killedAt).as("answered again within 30 minutes").isLessThan(Duration.ofMinutes(30).toNanos());
            double now = (System.nanoTime() - killedAt) / 1e9;
            if (leftRunning < 0 && survivor.status("/health") != 200) {
                leftRunning = now;
            }
            if (ready(survivor).contains("restoring")) {
                restoringFrom = restoringFrom < 0 ? now : restoringFrom;
                restoringUntil = now;
            }
            for (int p : partitions) {
                if (!answered.containsKey(p)) {
                    Answer answer = ask(survivor, probes.get(p), false);
                    if (answer.statusCode() == 200) {
                        assertThat(answer.body()).as("partition %d's identity, answered by the survivor", p).isEqualTo(before.get(p));
                        answered.put(p, (System.nanoTime() - killedAt) / 1e9);
                    }
                }
            }
            Thread.sleep(100);
        }
        double last = answered.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        Row row = new Row(standbys, owned, stateDir, leftRunning, last, restoringFrom < 0 ? 0 : restoringUntil - restoringFrom);
        System.out.printf("[failover] %s: killed the owner of partitions %s; the survivor answered them after %s s%n", standbys, partitions, answered);
        return row;
    }

    /** An answer, or status -1 when none came (the connection refused or timed out). */
    record Answer(int statusCode, String body) {}

    private static Answer ask(ForkedService s, String identity, boolean ownStoresOnly) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(s.baseUrl() + "/v1/identities/" + identity)).timeout(Duration.ofSeconds(5));
        if (ownStoresOnly) {
            request.header("X-Jolt-Forwarded", "failover-it");
        }
        try {
            HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(answer.statusCode(), answer.body());
        } catch (IOException e) {
            return new Answer(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String ready(ForkedService s) {
        try {
            return s.get("/health/ready").body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }
}
