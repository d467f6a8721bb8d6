package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kill -9 of the service, again and again, mid-stream: a forked {@code jolt run} is killed with
 * SIGKILL while it processes, three times on its state dir and once more after the state dir
 * was wiped (more often in the longer variant, {@code -Pfaults-long}) (the stores come back from their changelogs), and then runs to the end. The outputs
 * are those of a run that never crashed: nothing lost, nothing doubled.
 */
@ExtendWith(RealKafka.class)
class ServiceKillIT {
    static final String APPLICATION = "jolt-it-kill9";
    /** The longer variant (mvn verify -Pfaults-long) kills more often, on more identities. */
    static final int KILLS = Integer.getInteger("jolt.faults.kills", 4);
    static final int IDENTITIES = Integer.getInteger("jolt.faults.identities", 500);

    @Test
    void killedWithSigkillAgainAndAgainMidStreamTheServiceEndsAsIfNeverKilled(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(4, null));
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        FaultScenario scenario = FaultScenario.generate(IDENTITIES, KILLS + 1, 14);
        Path stateDir = StreamHarness.tempStateDir("kill9");
        ForkedService.Settings settings = ForkedService.settings(broker.bootstrapServers(), APPLICATION, stateDir, 4)
                .with(Map.of("session.timeout.ms", "6000", "num.stream.threads", "2"));

        long inFlightAtKills = 0;
        for (int round = 0; round < KILLS; round++) {
            if (round == KILLS - 1) {
                settings = settings.onStateDir(StreamHarness.tempStateDir("kill9-wiped"));
            }
            long before = harness.progress(APPLICATION).processed();
            ForkedService service = ForkedService.start("kill9-" + round, settings);
            scenario.produce(harness, registry, round);
            harness.awaitMidStream(APPLICATION, before, Duration.ofSeconds(120));
            service.kill();
            // Nothing is produced or committed after the kill: what is uncommitted now was in flight at it.
            TopicReader.Progress atKill = harness.progress(APPLICATION);
            long inFlight = atKill.total() - atKill.processed();
            System.out.printf("[kill -9] round %d: killed with %,d of %,d input records in flight%n", round, inFlight, atKill.total());
            assertThat(inFlight).as("killed mid-stream, round " + round).isPositive();
            inFlightAtKills += inFlight;
        }
        ForkedService last = ForkedService.start("kill9-last", settings).awaitRunning(Duration.ofSeconds(120));
        scenario.produce(harness, registry, KILLS);
        harness.awaitProcessed(APPLICATION, Duration.ofSeconds(180));
        last.stop();

        OutputAudit audit = OutputAudit.of(harness, registry, scenario.records()).assertClean(ExpectedLosses.none(
                "the commit waits for the bolt (BoltBeforeCommit): a kill cuts off only archive writes whose input is not yet "
                + "committed, and that input is processed again (an archive repeat, not a loss)"));
        assertThat(audit.undecodable()).as("each undecodable record rejected once").isEqualTo(scenario.poisonRecords());
        System.out.println("[kill -9] the merge's verdicts, each reported: " + audit.verdicts());
        System.out.println("[kill -9] " + audit.row("service kill -9 ×" + KILLS + " (" + (KILLS - 1) + " on its state dir, 1 wiped)",
                String.format("%,d (summed over the kills)", inFlightAtKills)));
    }
}
