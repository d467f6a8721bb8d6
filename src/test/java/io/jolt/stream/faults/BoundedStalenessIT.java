package io.jolt.stream.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ForkedKafka;
import io.jolt.stream.testing.ForkedService;
import io.jolt.stream.testing.OutputAudit;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.testing.Waiting;
import io.jolt.stream.wire.TopicGuard;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bounded staleness, on one host: an instance that loses its brokers goes on holding its stores,
 * and Kafka Streams would go on serving them. Given a service whose bound is 3 s, when its only
 * broker is killed, then within the bound (and a poll) every question about an identity is
 * answered 503 {@code stale} with {@code Retry-After}, each in well under 2 s; and once the broker
 * is back, 200 again, each 200 saying its age (never above the bound) and position.
 */
class BoundedStalenessIT {
    static final String APPLICATION = "jolt-it-staleness";
    static final ObjectMapper JSON = new ObjectMapper();
    static final long BOUND_MS = 3_000;

    @Test
    void anInstanceCutOffFromItsBrokersAnswersStaleWithinTheBoundAndFreshOnceBack() throws Exception {
        try (ForkedKafka cluster = ForkedKafka.start(1)) {
            StreamHarness harness = new StreamHarness(cluster.bootstrapServers());
            try (var admin = cluster.admin()) {
                TopicGuard.ensure(admin, Topics.load(4, null));
            }
            FaultScenario scenario = FaultScenario.generate(40, 1, 21);
            scenario.produce(harness, TopicSchemas.seededRegistry(), 0);
            ForkedService service = ForkedService.start("staleness", ForkedService.settings(cluster.bootstrapServers(), APPLICATION,
                    StreamHarness.tempStateDir("staleness"), 4).with(Map.of(JoltConfig.QUERY_MAX_STALENESS_MS, String.valueOf(BOUND_MS))))
                    .awaitRunning(Duration.ofSeconds(120));
            harness.awaitProcessed(APPLICATION, Duration.ofSeconds(120));
            String identity = OutputAudit.coreMerge(scenario.records()).stream().map(MergedState::identity).findFirst().orElseThrow();
            String path = "/v1/identities/" + identity;

            Waiting.await("a current answer").atMost(Duration.ofSeconds(30)).until(() -> service.status(path) == 200);
            assertFresh(service.get(path));

            cluster.kill(1);
            long killedAt = System.nanoTime();
            Waiting.await("503 stale once the bound has passed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> service.status(path) == 503);
            long staleAfterMs = (System.nanoTime() - killedAt) / 1_000_000;
            long asked = System.nanoTime();
            HttpResponse<String> stale = service.get(path);
            long answeredInMs = (System.nanoTime() - asked) / 1_000_000;
            System.out.printf("[staleness] broker killed: 503 stale after %,d ms (bound %,d ms), answered in %,d ms: %s%n", staleAfterMs,
                    BOUND_MS, answeredInMs, stale.body());
            assertThat(stale.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(stale.body()).at("/error/code").asText()).isEqualTo("stale");
            assertThat(JSON.readTree(stale.body()).at("/error/details/max_staleness_ms").asLong()).isEqualTo(BOUND_MS);
            assertThat(stale.headers().firstValue("Retry-After")).isPresent();
            assertThat(answeredInMs).as("a stale answer is refused at once").isLessThan(2_000);
            assertThat(staleAfterMs).as("refused once the bound has passed, not before").isGreaterThanOrEqualTo(BOUND_MS - 1_000);

            cluster.restart(1);
            Waiting.await("200 again once the broker is back").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> service.status(path) == 200);
            assertFresh(service.get(path));
            service.stop();
        }
    }

    private static void assertFresh(HttpResponse<String> answer) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        long age = Long.parseLong(answer.headers().firstValue("Jolt-Age-Ms").orElseThrow());
        assertThat(age).as("the answer's age").isBetween(0L, BOUND_MS);
        assertThat(answer.headers().firstValue("Jolt-Position").orElseThrow()).matches("jolt\\.authority\\.v2-\\d+=\\d+,jolt\\.entries\\.v2-\\d+=\\d+");
        JsonNode state = JSON.readTree(answer.body());
        assertThat(state.get("identity").asText()).isNotEmpty();
    }
}
