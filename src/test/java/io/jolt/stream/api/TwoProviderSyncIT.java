package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.cli.JoltCommand;
import io.jolt.stream.protocol.OrderIndependenceProperties;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.protocol.sync.SyncResponse;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.VectorRecords;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two providers, each a service on its own real broker: B pulls identities from A by delta sync
 * (jolt sync --ingest) and converges to A's merged state exactly; a second pull transfers only
 * what is new.
 */
class TwoProviderSyncIT {
    @Test
    void providerBConvergesToProviderAByDeltaSync() throws Exception {
        try (KafkaBroker brokerA = KafkaBroker.start(); KafkaBroker brokerB = KafkaBroker.start()) {
            StreamHarness a = new StreamHarness(brokerA);
            StreamHarness b = new StreamHarness(brokerB);
            InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
            List<byte[]> lines = OrderIndependenceProperties.GeneratedHistory.lines(7);
            String identity = ((RecordJson.AuthorityLine) RecordJson.read(lines.stream()
                    .filter(l -> new String(l).contains("jolt.device_authorization")).findFirst().orElseThrow())).identity();
            // Provider A pages at 3 entries: the pull must follow its continuations, whatever its limits.
            try (JoltNode providerA = JoltNode.start(a.config("jolt-provider-a", StreamHarness.tempStateDir("provider-a"), 2)
                    .with(JoltNode.HTTP_PORT, "0").with(JoltConfig.SYNC_MAX_ENTRIES, "3"), registry).awaitRunning(Duration.ofSeconds(60));
                 JoltNode providerB = JoltNode.start(b.config("jolt-provider-b", StreamHarness.tempStateDir("provider-b"), 2)
                    .with(JoltNode.HTTP_PORT, "0"), registry).awaitRunning(Duration.ofSeconds(60))) {
                a.produce(VectorRecords.of(lines, registry));
                a.awaitProcessed("jolt-provider-a", Duration.ofSeconds(60));
                Path state = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "sync-state");
                SyncResponse firstPage = firstPage(providerA, identity);
                assertThat(firstPage.deviceLogs().stream().mapToInt(List::size).sum()).as("jolt.sync.max.entries=3").isLessThanOrEqualTo(3);
                assertThat(firstPage.continuation()).as("a continuation to the rest").isNotNull();

                assertThat(JoltCommand.execute("sync", "--from", providerA.baseUrl(), "--identity", identity,
                        "--state", state.toString(), "--ingest", brokerB.bootstrapServers())).isZero();
                b.awaitProcessed("jolt-provider-b", Duration.ofSeconds(60));
                var stateA = new io.jolt.stream.processor.IdentityQueries(providerA.service().streams(), providerA.service().signatures()).state(identity).orElseThrow();
                var stateB = new io.jolt.stream.processor.IdentityQueries(providerB.service().streams(), providerB.service().signatures()).state(identity).orElseThrow();
                assertThat(stateA.singletons().size() + stateA.appends().size()).as("a history worth syncing").isGreaterThan(2);
                assertThat(singletonsAndAppends(stateB)).isEqualTo(singletonsAndAppends(stateA));

                String held = Files.readString(state.resolve(identity + ".jsonl"));
                assertThat(JoltCommand.execute("sync", "--from", providerA.baseUrl(), "--identity", identity,
                        "--state", state.toString())).isZero();
                assertThat(Files.readString(state.resolve(identity + ".jsonl"))).as("a second pull transfers nothing new").isEqualTo(held);
            }
        }
    }

    private static SyncResponse firstPage(JoltNode provider, String identity) throws Exception {
        SyncRequest request = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, List.of(), List.of(),
                List.of());
        HttpResponse<byte[]> answer = ContractClient.of(OpenApiContract.SERVICE).send(HttpRequest.newBuilder(URI.create(provider.baseUrl() + "/jolt/device-writer/sync"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.encode())).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.statusCode()).isEqualTo(200);
        return SyncResponse.decode(answer.body());
    }

    static String singletonsAndAppends(io.jolt.stream.protocol.MergedState state) throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(MergedStateJson.write(state));
        return json.get("singletons").toString() + json.get("appends") + json.get("devices") + json.get("required_operation_level");
    }
}
