package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.faults.AnswerAudit.Accepted;
import io.jolt.stream.faults.AnswerAudit.Answer;
import io.jolt.stream.faults.AnswerAudit.Outage;
import io.jolt.stream.faults.AnswerAudit.Placed;
import io.jolt.stream.faults.Nemesis.Fault;
import io.jolt.stream.faults.Nemesis.Target;
import io.jolt.stream.protocol.Hex;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ForkedKafka;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.InputLog;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.testing.TestHosts;
import io.jolt.stream.testing.TestHosts.Host;
import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * Many hosts, hostile network: three brokers (KRaft, replication 3, min.insync.replicas 2) and
 * three service instances (one application, a standby of every task), each on a host of its own
 * (a network namespace), and a client host that ingests over HTTP to every instance and reads
 * back, all through a seeded schedule of faults ({@link Nemesis}): kill -9, SIGSTOP past the
 * session timeout, a host cut off, a host cut off from the cluster only, two at once.
 *
 * <p>Then the audit of the one-host fault tests, across the cluster: every identity's state is
 * the core's merge of every record in the inputs, nothing is emitted twice, every eligible entry
 * is archived, every line answered accepted is in the inputs where the answer said; and every
 * answer recorded during the run held every record accepted more than the staleness bound before
 * it, or was a typed 503 in time ({@link AnswerAudit}). The seed is printed; {@code
 * -Djolt.chaos.seed=N} replays a run, {@code -Djolt.chaos.minutes=M} lengthens it ({@code ./jolt
 * chaos}).
 */
class ChaosIT {
    static final String APPLICATION = "jolt-it-chaos";
    static final long FIXED_SEED = 20261211L; // every kind of fault, on instances and brokers, and two doubled
    static final long BOUND_MS = 10_000;
    static final long FORWARD_MS = 1_500;
    static final int PARTITIONS = 6;
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFixedSchedule() throws Exception {
        run(Long.getLong("jolt.chaos.seed", FIXED_SEED));
    }

    @Test
    void aRandomSchedule() throws Exception {
        run(new SecureRandom().nextLong());
    }

    private void run(long seed) throws Exception {
        Duration length = Duration.ofSeconds(Math.round(Double.parseDouble(System.getProperty("jolt.chaos.minutes", "3")) * 60));
        Nemesis nemesis = Nemesis.schedule(seed, length);
        System.out.printf("[chaos] seed %d (replay: ./jolt chaos --seed %d), %s, %d faults:%n", seed, seed, length, nemesis.faults().size());
        nemesis.faults().forEach(f -> System.out.println("[chaos]   " + f));
        TestHosts.requireCapable();
        try (TestHosts hosts = TestHosts.create()) {
            List<Host> brokerHosts = List.of(hosts.host("k1"), hosts.host("k2"), hosts.host("k3"));
            List<Host> serviceHosts = List.of(hosts.host("s1"), hosts.host("s2"), hosts.host("s3"));
            try (ForkedKafka cluster = ForkedKafka.onHosts(hosts, brokerHosts)) {
                new Run(seed, nemesis, length, hosts, cluster, brokerHosts, serviceHosts).go();
            }
        }
    }

    /** One run: the cluster, the client, the faults, the audit. */
    private static final class Run {
        final long seed;
        final Nemesis nemesis;
        final Duration length;
        final TestHosts hosts;
        final ForkedKafka cluster;
        final List<Host> brokerHosts;
        final List<Host> serviceHosts;
        final AtomicReferenceArray<ForkedService> services = new AtomicReferenceArray<>(3);
        final ForkedService.Settings[] settings = new ForkedService.Settings[3];
        final List<Outage> outages = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<Fault, Long> struckAt = new java.util.concurrent.ConcurrentHashMap<>();
        final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        long startNanos;

        Run(long seed, Nemesis nemesis, Duration length, TestHosts hosts, ForkedKafka cluster, List<Host> brokerHosts, List<Host> serviceHosts) {
            this.seed = seed;
            this.nemesis = nemesis;
            this.length = length;
            this.hosts = hosts;
            this.cluster = cluster;
            this.brokerHosts = brokerHosts;
            this.serviceHosts = serviceHosts;
        }

        void go() throws Exception {
            StreamHarness harness = new StreamHarness(cluster.bootstrapServers());
            try (var admin = cluster.admin()) {
                TopicGuard.ensure(admin, Topics.load(PARTITIONS, (short) 3));
            }
            FaultScenario scenario = FaultScenario.generate(240, 1, seed);
            List<String> identities = OutputAudit.coreMerge(scenario.records()).stream().map(MergedState::identity).toList();
            for (int i = 0; i < 3; i++) {
                settings[i] = ForkedService.settings(cluster.bootstrapServers(), APPLICATION, StreamHarness.tempStateDir("chaos-s" + (i + 1)), PARTITIONS)
                        .with(Map.of("num.standby.replicas", "1", "session.timeout.ms", "10000", "replication.factor", "3",
                                JoltConfig.TOPIC_REPLICATION, "3", JoltConfig.QUERY_MAX_STALENESS_MS, String.valueOf(BOUND_MS),
                                JoltConfig.HTTP_FORWARD_TIMEOUT_MS, String.valueOf(FORWARD_MS)));
                services.set(i, ForkedService.onHost(hosts, serviceHosts.get(i), "chaos-s" + (i + 1), settings[i]));
            }
            for (int i = 0; i < 3; i++) {
                services.get(i).awaitRunning(Duration.ofSeconds(180));
            }
            startNanos = System.nanoTime();
            List<ClusterClient.Instance> instances = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                instances.add(new ClusterClient.Instance("service-" + (i + 1), services.get(i).baseUrl()));
            }
            Map<String, Integer> faultCounts = new TreeMap<>();
            try (ClusterClient client = new ClusterClient(instances, startNanos)) {
                client.read(identities, 2, seed);
                client.ingest(scenario.records(), length.minusSeconds(20));
                strikeAll(faultCounts);
                client.awaitIngested(Duration.ofMinutes(5));
                harness.awaitProcessed(APPLICATION, Duration.ofMinutes(5));
                Thread.sleep(BOUND_MS + 2_000); // the readers see the settled state too
                client.close();
                audit(harness, scenario, identities, client, faultCounts);
            } finally {
                for (int i = 0; i < 3; i++) {
                    if (services.get(i).isAlive()) {
                        services.get(i).stop();
                    }
                }
            }
        }

        /**
         * Strikes and heals every fault at its time, each on a thread of its own (two at once
         * strike together), recording for a service killed, paused or cut off the outage until
         * it answers again; one cut off from the cluster only must go on answering.
         */
        private void strikeAll(Map<String, Integer> counts) throws Exception {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (Fault f : nemesis.faults()) {
                Thread t = new Thread(() -> {
                    try {
                        sleepUntil(f.at());
                        long from = System.nanoTime() - startNanos;
                        struckAt.put(f, from);
                        strike(f);
                        log("struck", f);
                        sleepUntil(Duration.ofNanos(from).plus(f.lasting()));
                        heal(f);
                        log("healed", f);
                        if (!f.target().broker() && f.kind() != Nemesis.Kind.ISOLATE) {
                            outages.add(new Outage(f.target().toString(), from, System.nanoTime() - startNanos));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "nemesis-" + f.target());
                threads.add(t);
                t.start();
                counts.merge(f.kind() + " " + (f.target().broker() ? "broker" : "service"), 1, Integer::sum);
            }
            for (Thread t : threads) {
                t.join(Duration.ofMinutes(10).toMillis());
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a fault could not be struck or healed", failures.get(0));
            }
        }

        private void sleepUntil(Duration sinceStart) throws InterruptedException {
            long wait = startNanos + sinceStart.toNanos() - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000);
            }
        }

        private void log(String what, Fault f) {
            System.out.printf("[chaos] %6.1f s %s %s%n", (System.nanoTime() - startNanos) / 1e9, what, f);
        }

        private void strike(Fault f) throws Exception {
            Target t = f.target();
            int i = t.index();
            switch (f.kind()) {
                case KILL -> {
                    if (t.broker()) {
                        cluster.kill(i);
                    } else {
                        services.get(i - 1).kill();
                    }
                }
                case PAUSE -> {
                    if (t.broker()) {
                        cluster.pause(i);
                    } else {
                        services.get(i - 1).pause();
                    }
                }
                case CUT -> hosts.cut(host(t));
                case ISOLATE -> hosts.isolate(host(t));
            }
        }

        /** Undoes the fault and, for a service, waits until it answers again (RUNNING, for one killed). */
        private void heal(Fault f) throws Exception {
            Target t = f.target();
            int i = t.index();
            switch (f.kind()) {
                case KILL -> {
                    if (t.broker()) {
                        cluster.restart(i);
                    } else {
                        services.set(i - 1, ForkedService.onHost(hosts, serviceHosts.get(i - 1), "chaos-s" + i, settings[i - 1]));
                    }
                }
                case PAUSE -> {
                    if (t.broker()) {
                        cluster.resume(i);
                    } else {
                        services.get(i - 1).resume();
                    }
                }
                case CUT, ISOLATE -> hosts.heal(host(t));
            }
            if (!t.broker()) {
                ForkedService s = services.get(i - 1);
                Waiting.await(t + " answers again").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                        .until(() -> s.status("/health") > 0);
            }
        }

        private Host host(Target t) {
            return (t.broker() ? brokerHosts : serviceHosts).get(t.index() - 1);
        }

        private void audit(StreamHarness harness, FaultScenario scenario, List<String> identities, ClusterClient client,
                Map<String, Integer> faultCounts) throws Exception {
            // Every line answered accepted is where its answer said, byte for byte; every record in the inputs is one the client posted.
            Map<String, Object> posted = new HashMap<>();
            for (VectorRecords v : VectorRecords.ofRecords(scenario.records(), registry)) {
                posted.put(Hex.encode(v.value()), v.record());
            }
            List<InputLog.Stored> stored = InputLog.read(cluster.bootstrapServers());
            Map<String, byte[]> at = new HashMap<>();
            List<Placed> placed = new ArrayList<>();
            Set<Object> input = new LinkedHashSet<>();
            for (InputLog.Stored s : stored) {
                at.put(s.at(), s.value());
                Object record = posted.get(Hex.encode(s.value()));
                assertThat(record).as("the record at %s is one the client posted", s.at()).isNotNull();
                placed.add(new Placed(s.topic(), s.partition(), s.offset(), record));
                input.add(record);
            }
            List<Accepted> accepted = client.accepted();
            for (Accepted a : accepted) {
                assertThat(at.get(InputLog.Stored.at(a.topic(), a.partition(), a.offset()))).as("accepted line at %s-%d@%d", a.topic(),
                        a.partition(), a.offset()).isEqualTo(VectorRecords.ofRecords(List.of(a.record()), registry).get(0).value());
            }

            OutputAudit outputs = OutputAudit.of(harness, registry, List.copyOf(input)).assertClean(ExpectedLosses.none(
                    "no fault outlasts the bolt's delivery timeout (120 s), and a kill cuts off only archive writes whose input is not yet "
                    + "committed, which is processed again").orDegraded("a broker killed, paused or cut off can leave an archive partition "
                    + "short of min.insync.replicas, or outlast the bolt's 10 s max.block.ms: such a write lands with the leader alone, "
                    + "reported as degraded"));

            // Settled: every instance answers every identity with the core's merge of everything.
            Map<String, MergedState> merged = new HashMap<>();
            OutputAudit.coreMerge(List.copyOf(input)).forEach(m -> merged.put(m.identity(), m));
            for (int i = 0; i < 3; i++) {
                ForkedService s = services.get(i);
                for (String identity : identities) {
                    var answer = s.get("/v1/identities/" + identity);
                    assertThat(answer.statusCode()).as("%s asked of %s after the run: %s", identity, s.baseUrl(), answer.body()).isEqualTo(200);
                    assertThat(JSON.readTree(answer.body())).as(identity)
                            .isEqualTo(OutputAudit.asServed(merged.get(identity)));
                }
            }

            List<Answer> answers = client.answers();
            AnswerAudit.Result result = new AnswerAudit(placed, accepted, BOUND_MS, FORWARD_MS, outages).check(answers);
            System.out.println("[chaos] answers during the run: " + result.byKind());
            result.wrong().stream().limit(20).forEach(w -> System.out.println("[chaos] WRONG " + w));
            System.out.println("[chaos] faults: " + faultCounts + "; records posted again after no answer: " + client.reposted());
            System.out.println("[chaos] failover after kill -9 of a service: " + failovers(answers));
            System.out.println("[chaos] " + outputs.row("chaos seed " + seed, String.format("%,d accepted", accepted.size())));
            System.out.printf("[chaos] | %d | %s | %s | %,d | %,d | %s | %d | %d | %,d of %,d |%n", seed, length, faultCounts, accepted.size(),
                    identities.size(), outputs.stateEqual() ? "yes" : "NO", outputs.stateDuplicates() + outputs.conflictDuplicates()
                            + outputs.rejectionDuplicates(), outputs.archiveMissing(), result.wrong().size(), answers.size());
            assertThat(result.wrong()).as("answers that broke the staleness promise or came untyped (seed %d)", seed).isEmpty();
            assertThat(result.byKind().getOrDefault("200", 0)).as("answers served").isPositive();
        }

        /**
         * For each kill -9 of a service: how long the surviving instances refused questions after
         * it (the last refusal before the next fault, or within 90 s), from the answers recorded.
         */
        private List<String> failovers(List<Answer> answers) {
            List<String> out = new ArrayList<>();
            for (Fault f : nemesis.faults()) {
                if (f.kind() != Nemesis.Kind.KILL || f.target().broker()) {
                    continue;
                }
                long from = struckAt.get(f);
                // The next fault ends the window; one struck together with this (a doubled fault) is part of it.
                long until = nemesis.faults().stream().filter(g -> struckAt.getOrDefault(g, Long.MAX_VALUE) > from + 1_000_000_000L)
                        .mapToLong(g -> struckAt.get(g)).min().orElse(Long.MAX_VALUE);
                long end = Math.min(until, from + 90_000_000_000L);
                List<Answer> survivors = answers.stream().filter(a -> a.askedNanos() >= from && a.askedNanos() < end
                        && !a.instance().equals(f.target().toString())).toList();
                long refusals = survivors.stream().filter(a -> a.status() != 200 && a.status() != 404).count();
                long last = survivors.stream().filter(a -> a.status() != 200 && a.status() != 404).mapToLong(Answer::answeredNanos).max().orElse(from);
                out.add(String.format("%s killed at %.0f s: survivors refused %d of %d questions, the last %.1f s after the kill", f.target(),
                        from / 1e9, refusals, survivors.size(), (last - from) / 1e9));
            }
            return out;
        }
    }
}
