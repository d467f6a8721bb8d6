package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.json.Bundle;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.OutputAudit.ExpectedLosses;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicGuard;
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
 * Instances join and leave under load: a second instance joins mid-stream, the first leaves
 * cleanly, comes back, and the second is then killed with SIGKILL. Partitions and their stores
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
        FaultScenario scenario = FaultScenario.generate(300, 4, 16);
        List<MergedState> expected = merge(scenario.records());
        ForkedService.Settings a = ForkedService.settings(broker.bootstrapServers(), APPLICATION, StreamHarness.tempStateDir("rebalance-a"), 4)
                .with(Map.of("session.timeout.ms", "6000"));
        ForkedService.Settings b = a.onStateDir(StreamHarness.tempStateDir("rebalance-b"));
        String bootstrap = broker.bootstrapServers();

        try (QueryProbe probe = new QueryProbe(expected.stream().map(MergedState::identity).toList())) {
            ForkedService first = ForkedService.start("rebalance-a", a).awaitRunning(Duration.ofSeconds(120));
            probe.joined(first);
            long inFlight = midStream(harness, registry, scenario, 0, bootstrap);
            ForkedService second = ForkedService.start("rebalance-b", b).awaitRunning(Duration.ofSeconds(120));
            probe.joined(second);
            System.out.printf("[rebalance] second instance joined with %,d records in flight%n", inFlight);

            inFlight += midStream(harness, registry, scenario, 1, bootstrap);
            probe.leaving(first);
            first.stop();
            System.out.println("[rebalance] first instance left cleanly");

            inFlight += midStream(harness, registry, scenario, 2, bootstrap);
            ForkedService again = ForkedService.start("rebalance-a2", a).awaitRunning(Duration.ofSeconds(120));
            probe.joined(again);
            probe.leaving(second);
            second.kill();
            System.out.println("[rebalance] first instance back, second killed with SIGKILL");

            scenario.produce(harness, registry, 3);
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(180));
            again.awaitRunning(Duration.ofSeconds(60));
            for (MergedState state : expected) {
                var answer = again.get("/v1/identities/" + state.identity());
                assertThat(answer.statusCode()).as(state.identity()).isEqualTo(200);
                assertThat(JSON.readTree(answer.body())).as(state.identity()).isEqualTo(asTheServiceServesIt(state));
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
            System.out.println("[rebalance] " + "the merge's verdicts, each reported: " + audit.verdicts());
            System.out.println("[rebalance] " + audit.row("2nd instance joins, 1st leaves cleanly and returns, 2nd kill -9", String.format("%,d", inFlight)));
        }
    }

    private static long midStream(StreamHarness harness, InMemorySchemaRegistry registry, FaultScenario scenario, int slice, String bootstrap)
            throws Exception {
        var before = Faults.progress(bootstrap, APPLICATION);
        scenario.produce(harness, registry, slice);
        var after = Faults.progress(bootstrap, APPLICATION);
        return Faults.awaitMidStream(bootstrap, APPLICATION, before.processed(), after.total(), Duration.ofSeconds(120));
    }

    /** The core's merged state, less the rows of invalid entries (those are on jolt.rejected.v2, not stored: src/site/markdown/http-api.md). */
    private static JsonNode asTheServiceServesIt(MergedState state) throws Exception {
        ObjectNode json = (ObjectNode) JSON.readTree(MergedStateJson.write(state));
        ArrayNode kept = JSON.createArrayNode();
        json.get("rejected").forEach(row -> {
            if (!row.get("reason").asText().equals("invalid_entry")) {
                kept.add(row);
            }
        });
        json.set("rejected", kept);
        return json;
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
