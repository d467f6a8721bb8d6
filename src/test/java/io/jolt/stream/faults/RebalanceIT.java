package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.RecordJson;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Instances join and leave under load: a second instance is launched mid-stream, the first leaves
 * cleanly mid-stream and comes back, and the second is then killed with SIGKILL while a slice is
 * being processed (asserted at the kill: sent more than processed). Partitions and their stores
 * move each time; queries keep being answered (a moment of 503 while a rebalance runs, never a
 * 500), and at the end every identity, asked of the survivor, is exactly the core's merge.
 */
@ExtendWith(RealKafka.class)
class RebalanceIT {
    static final String APPLICATION = "jolt-it-rebalance";
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void instancesJoinAndLeaveMidStreamAndQueriesFollowThePartitions(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        try (var admin = broker.admin()) {
            TopicGuard.ensure(admin, Topics.load(4, null));
        }
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        FaultScenario scenario = FaultScenario.generate(300, 5, 16);
        List<MergedState> expected = merge(scenario.records());
        ForkedService.Settings a = ForkedService.settings(broker.bootstrapServers(), APPLICATION, StreamHarness.tempStateDir("rebalance-a"), 4)
                .with(Map.of("session.timeout.ms", "6000"));
        ForkedService.Settings b = a.onStateDir(StreamHarness.tempStateDir("rebalance-b"));

        try (QueryProbe probe = new QueryProbe(expected.stream().map(MergedState::identity).toList())) {
            ForkedService first = ForkedService.start("rebalance-a", a).awaitRunning(Duration.ofSeconds(120));
            probe.joined(first);

            // A join takes a JVM start and a rebalance, seconds in which a slice can drain: what was in flight when
            // it began is reported, not asserted. The leave and the kill strike at once, and are asserted mid-stream.
            long atSecondLaunch = midStream(harness, registry, scenario, 0);
            ForkedService second = ForkedService.start("rebalance-b", b).awaitRunning(Duration.ofSeconds(120));
            probe.joined(second);
            System.out.printf("[rebalance] second instance launched with %,d records in flight, now running%n", atSecondLaunch);

            long atLeave = midStream(harness, registry, scenario, 1);
            probe.leaving(first);
            first.stop();
            System.out.printf("[rebalance] first instance left cleanly with %,d records in flight%n", atLeave);
            assertThat(atLeave).as("left mid-stream").isPositive();

            long atFirstRelaunch = midStream(harness, registry, scenario, 2);
            ForkedService again = ForkedService.start("rebalance-a2", a).awaitRunning(Duration.ofSeconds(120));
            probe.joined(again);
            System.out.printf("[rebalance] first instance launched again with %,d records in flight, now running%n", atFirstRelaunch);

            midStream(harness, registry, scenario, 3);
            probe.leaving(second);
            second.kill();
            // Nothing is produced after the kill and commits only grow: what is uncommitted now was in flight at it.
            TopicReader.Progress atKill = harness.progress(APPLICATION);
            System.out.printf("[rebalance] second instance killed with SIGKILL: %,d records sent, %,d processed%n", atKill.total(),
                    atKill.processed());
            assertThat(atKill.total()).as("killed while slice 3 was being processed").isGreaterThan(atKill.processed());

            scenario.produce(harness, registry, 4);
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(180));
            again.awaitRunning(Duration.ofSeconds(60));
            for (MergedState state : expected) {
                var answer = again.get("/v1/identities/" + state.identity());
                assertThat(answer.statusCode()).as(state.identity()).isEqualTo(200);
                assertThat(JSON.readTree(answer.body())).as(state.identity()).isEqualTo(OutputAudit.asServed(state));
            }
            probe.close();
            Map<Integer, Integer> answers = probe.answers();
            System.out.println("[rebalance] query answers by status during the run: " + answers + ", first of each: " + probe.firstBodies());
            assertThat(answers.keySet()).as("only answers, 404 before an identity is seen and 503 while rebalancing")
                    .isSubsetOf(Set.of(200, 404, 503));
            assertThat(answers.get(200)).isPositive();
            again.stop();

            OutputAudit audit = OutputAudit.of(harness, registry, scenario.records()).assertClean(ExpectedLosses.none(
                    "a clean stop flushes the bolt before it closes, and a kill cuts off only archive writes whose input is not yet "
                    + "committed (BoltBeforeCommit): that input is processed again by the survivor (a repeat, not a loss)"));
            System.out.println("[rebalance] the merge's verdicts, each reported: " + audit.verdicts());
            System.out.println("[rebalance] " + audit.row("2nd instance joins, 1st leaves cleanly and returns, 2nd kill -9",
                    String.format("%,d at the leave, %,d at the kill (joins launched with %,d and %,d)", atLeave,
                            atKill.total() - atKill.processed(), atSecondLaunch, atFirstRelaunch)));
        }
    }

    /** Produces the slice and waits until a third of it is processed; returns the records then in flight. */
    private static long midStream(StreamHarness harness, InMemorySchemaRegistry registry, FaultScenario scenario, int slice) throws Exception {
        long before = harness.progress(APPLICATION).processed();
        scenario.produce(harness, registry, slice);
        return harness.awaitMidStream(APPLICATION, before, Duration.ofSeconds(120));
    }

    private static List<MergedState> merge(List<Object> records) {
        Bundle bundle = new Bundle();
        for (Object r : records) {
            String line = r instanceof AuthorityRecord a ? RecordJson.write(a) : RecordJson.write((Entry) r);
            bundle.add(line.getBytes(StandardCharsets.UTF_8));
        }
        return bundle.merge(SignatureCheck.DEFINITION);
    }
}
