package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ForkedKafka;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A broker dies under the running service: killed with SIGKILL and started again on its own
 * data; and, on a three-broker cluster (every topic with three replicas, two of them in sync for
 * a write), one broker lost for good. The service rides through both without a restart of its
 * own and ends with the outputs of a run that saw no fault.
 */
class BrokerFaultIT {
    final InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();

    @Test
    void theOnlyBrokerKilledAndRestartedMidStream() throws Exception {
        try (ForkedKafka cluster = ForkedKafka.start(1)) {
            run(cluster, 1, "broker-restart", "broker kill -9, restarted after 5 s (1 broker)", () -> {
                cluster.kill(1);
                Thread.sleep(5_000);
                cluster.restart(1);
            }, ExpectedLosses.none("the bolt's writes wait out a 5 s outage (its delivery timeout is 120 s) and land once the broker "
                    + "is back").orDegraded("a write that waits for the archive topic's metadata longer than the bolt's max.block.ms (10 s: "
                    + "the outage and the restart together, on a busy host) is written again to the leader alone once it is back: it "
                    + "lands, reported as degraded, never lost"));
        }
    }

    @Test
    void oneOfThreeBrokersLostForGoodMidStream() throws Exception {
        try (ForkedKafka cluster = ForkedKafka.start(3)) {
            run(cluster, 3, "broker-lost", "1 of 3 brokers kill -9, never back (RF 3, min ISR 2)", () -> cluster.kill(3),
                    ExpectedLosses.none("two in-sync replicas remain, as min.insync.replicas asks: the bolt's writes move to the new "
                            + "leaders and keep their promise"));
        }
    }

    interface Fault {
        void strike() throws Exception;
    }

    private void run(ForkedKafka cluster, int replication, String name, String fault, Fault strike, ExpectedLosses losses) throws Exception {
        String application = "jolt-it-" + name;
        StreamHarness harness = new StreamHarness(cluster.bootstrapServers());
        try (var admin = cluster.admin()) {
            TopicGuard.ensure(admin, Topics.load(4, (short) replication));
        }
        FaultScenario scenario = FaultScenario.generate(300, 4, 15);
        ForkedService service = ForkedService.start(name, ForkedService.settings(cluster.bootstrapServers(), application,
                StreamHarness.tempStateDir(name), 4).with(Map.of(JoltConfig.TOPIC_REPLICATION, String.valueOf(replication),
                "replication.factor", String.valueOf(replication)))).awaitRunning(Duration.ofSeconds(120));
        scenario.produce(harness, registry, 0);
        scenario.produce(harness, registry, 1);
        // Measured the moment before the strike: a broker just killed answers no one.
        long inFlight = harness.awaitMidStream(application, harness.progress(application).processed(), Duration.ofSeconds(120));
        strike.strike();
        System.out.printf("[%s] fault struck with %,d input records in flight%n", name, inFlight);
        assertThat(inFlight).as("struck mid-stream").isPositive();
        scenario.produce(harness, registry, 2);
        scenario.produce(harness, registry, 3);
        harness.awaitProcessed(application, Duration.ofSeconds(240));
        assertThat(service.isAlive()).as("the service rode through the fault").isTrue();
        assertThat(service.status("/health")).isEqualTo(200);
        service.stop();

        OutputAudit audit = OutputAudit.of(harness, registry, scenario.records()).assertClean(losses);
        assertThat(audit.undecodable()).isEqualTo(scenario.poisonRecords());
        System.out.println("[" + name + "] the merge's verdicts, each reported: " + audit.verdicts());
        System.out.println("[" + name + "] " + audit.row(fault, String.format("%,d", inFlight)));
    }
}
