package io.jolt.stream.api;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Entry;
import io.jolt.stream.protocol.Operation;
import io.jolt.stream.protocol.TestIdentity;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponse;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A provider that forgot superseded history past its retention answers sync from its floors up,
 * and says precisely what it cannot answer (410 history_forgotten) instead of a wrong answer.
 */
@ExtendWith(RealKafka.class)
class ForgottenHistorySyncIT {
    private final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);

    @Test
    void syncFromBelowAFloorIsRefusedByNameAndFromTheFloorItIsServed(KafkaBroker broker) throws Exception {
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        TestIdentity alice = TestIdentity.named("forgotten-sync");
        AuthorityRecord authorize = alice.authorize("dev_a");
        TestIdentity.Device a = alice.device("dev_a");
        Entry p1 = a.writeAt(1, set("/p", "v1"));
        Entry p2 = a.writeAt(2, set("/p", "v2"));
        Entry q1 = a.writeAt(3, set("/q", "q1"));
        String bundle = String.join("\n", RecordJson.write(authorize), RecordJson.write(p1), RecordJson.write(p2), RecordJson.write(q1)) + "\n";

        JoltConfig config = harness.config("jolt-it-forgotten", StreamHarness.tempStateDir("forgotten"), 1).with(JoltNode.HTTP_PORT, "0")
                .with(JoltConfig.SUPERSEDED_RETENTION_MS, "0").with(JoltConfig.SWEEP_INTERVAL_MS, "300");
        try (JoltNode node = JoltNode.start(config, TopicSchemas.seededRegistry())) {
            node.awaitRunning(Duration.ofSeconds(60));
            HttpResponse<String> posted = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/v1/records"))
                    .POST(HttpRequest.BodyPublishers.ofString(bundle, StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(posted.statusCode()).isLessThan(300);
            harness.awaitProcessed("jolt-it-forgotten", Duration.ofSeconds(60));

            // p1 (superseded by p2, same device, same path) is swept away: the floor is dev_a#0.
            HttpResponse<byte[]> complete = awaitStatus(node, new SyncRequest(alice.id(), 3, 2, List.of(), List.of(), List.of()), 410);
            JsonNode error = new ObjectMapper().readTree(complete.body()).get("error");
            assertThat(error.get("code").asText()).isEqualTo("history_forgotten");
            assertThat(error.get("details").get("device_id").asText()).isEqualTo("dev_a");
            assertThat(error.get("details").get("floor_sequence").asText()).isEqualTo("0");
            assertThat(error.get("details").get("floor_entry_hash").asText()).isEqualTo(p1.hash().hex());

            HttpResponse<byte[]> page = sync(node, new SyncRequest(alice.id(), 3, 2, List.of(Cursor.of(p1)), List.of(), List.of()));
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(SyncResponse.decode(page.body()).deviceLogs()).containsExactly(List.of(p2, q1));
        }
    }

    private HttpResponse<byte[]> awaitStatus(JoltNode node, SyncRequest request, int status) throws Exception {
        return await("sync answered " + status).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> sync(node, request), r -> r.statusCode() == status);
    }

    private HttpResponse<byte[]> sync(JoltNode node, SyncRequest request) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/jolt/device-writer/sync"))
                .header("Content-Type", "application/vnd.jolt.device-writer-sync")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.encode())).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static Operation set(String path, String content) {
        return new Operation.SetPath(path, TestIdentity.cid(content), Operation.Mode.SINGLETON);
    }
}
