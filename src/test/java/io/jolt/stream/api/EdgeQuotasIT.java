package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.RealKafka;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicReader;
import io.jolt.stream.wire.TopicSchemas;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Quotas at the edge of a real instance on a real broker: one client floods {@code POST
 * /v1/records} and is held to its rate with 429s, while another, within its quota, is served
 * every time at the pace it sends; what was let through is merged exactly as the mixed scenarios
 * expect, and nothing refused reached Kafka. Sync requests are held per client too, a client
 * without credentials by its address.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeQuotasIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String APPLICATION = "jolt-it-quota";
    static final String TOKEN = "flood-token";
    static final String BASIC = "steady:pa55";
    static final long RATE = 200;
    static final long BURST = 300;
    static final int SYNC_BURST = 5;
    static final Duration FLOOD = Duration.ofSeconds(6);

    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    StreamHarness harness;
    KafkaBroker broker;
    JoltNode node;

    @BeforeAll
    void startAnInstanceWithSmallQuotas(KafkaBroker broker) throws Exception {
        this.broker = broker;
        harness = new StreamHarness(broker);
        harness.resetTopics();
        node = JoltNode.start(harness.config(APPLICATION, StreamHarness.tempStateDir("quota"), 4).with(JoltNode.HTTP_PORT, "0")
                .with("num.stream.threads", "1").with(HttpAccess.TOKEN, TOKEN).with(HttpAccess.BASIC, BASIC)
                .with(EdgeQuotas.RECORDS_RATE, Long.toString(RATE)).with(EdgeQuotas.RECORDS_BURST, Long.toString(BURST))
                .with(EdgeQuotas.SYNC_RATE, "1").with(EdgeQuotas.SYNC_BURST, Integer.toString(SYNC_BURST)), TopicSchemas.seededRegistry())
                .awaitReady(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    /** What one client saw: lines the service let through and accepted, answers by kind, and for how long it sent. */
    record Tally(long linesLetThrough, long linesAccepted, int served, int refused, List<String> retryAfters, Duration took) {
        double perSecond() {
            return linesLetThrough / (took.toNanos() / 1e9);
        }
    }

    @Test
    void aFloodingClientIsHeldToItsRateWhileAnotherIsServedAtItsOwnAndAllThatIsLetThroughIsMerged() throws Exception {
        // given the mixed scenarios' lines, in batches of 50 for the flooder and 10 for the steady client
        List<byte[]> lines = Vectors.lines("mixed");
        // when the token's client re-posts each batch at once until it is let through, for 6 s,
        // while the basic user posts 10 lines every 100 ms (100 a second, half its quota)
        CompletableFuture<Tally> flood = CompletableFuture.supplyAsync(() -> post("Bearer " + TOKEN, lines, 50, Duration.ZERO));
        CompletableFuture<Tally> steady = CompletableFuture.supplyAsync(() -> post(basic(BASIC), lines, 10, Duration.ofMillis(100)));
        Tally a = flood.get(60, TimeUnit.SECONDS);
        Tally b = steady.get(60, TimeUnit.SECONDS);
        System.out.printf("[quota] flooder: %d lines let through in %.1f s (%.0f/s, quota %d/s, burst %d), %d answers 200/207, %d 429%n",
                a.linesLetThrough(), a.took().toMillis() / 1e3, a.perSecond(), RATE, BURST, a.served(), a.refused());
        System.out.printf("[quota] steady client: %d lines let through in %.1f s (%.0f/s, sent at 100/s), %d answers 200/207, %d 429%n",
                b.linesLetThrough(), b.took().toMillis() / 1e3, b.perSecond(), b.served(), b.refused());
        // expect the flooder refused, told when to come back, and let through no more than the
        // burst and the rate allow over the time it sent, yet at its rate rather than starved
        assertThat(a.refused()).isPositive();
        assertThat(a.retryAfters()).allMatch(s -> Long.parseLong(s) >= 1);
        assertThat(a.linesLetThrough()).isLessThanOrEqualTo(BURST + (long) (RATE * a.took().toNanos() / 1e9));
        assertThat(a.perSecond()).isGreaterThan(RATE * 0.5);
        // and the steady client never refused, served at the pace it sent
        assertThat(b.refused()).isZero();
        assertThat(b.perSecond()).isGreaterThan(80);
        // expect every record let through, and nothing else, on the input topics, and merged as
        // the scenarios say: the merged state depends on the set of records alone
        harness.awaitProcessed(APPLICATION, Duration.ofSeconds(60));
        assertThat(inputRecords()).isEqualTo(a.linesAccepted() + b.linesAccepted());
        JsonNode expected = JSON.readTree(Files.readAllBytes(Vectors.expected("mixed")));
        for (JsonNode identity : expected) {
            JsonNode served = JSON.readTree(get("/v1/identities/" + identity.get("identity").asText()).body());
            for (String field : List.of("identity", "required_operation_level", "devices", "singletons", "appends")) {
                assertThat(served.get(field)).as(identity.get("identity").asText() + " " + field).isEqualTo(identity.get(field));
            }
        }
        // and the refusals counted for the token's client alone
        String scraped = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/metrics")).header("Authorization", basic(BASIC)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(scraped).contains("jolt_http_quota_refused_total{client=\"token\",reason=\"rate\",route=\"/v1/records\"} " + a.refused() + ".0",
                "jolt_http_quota_refused_total{client=\"basic:steady\",reason=\"rate\",route=\"/v1/records\"} 0.0");
    }

    @Test
    void syncRequestsAreHeldPerClientAnAddressWithoutCredentialsBeingOne() throws Exception {
        // given an ask-only sync request (no credentials needed) for an identity
        String identity = Vectors.lines("mixed").stream().map(RecordJson::read).filter(l -> l instanceof RecordJson.AuthorityLine)
                .map(l -> ((RecordJson.AuthorityLine) l).identity()).findFirst().orElseThrow();
        byte[] ask = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, List.of(), List.of(), List.of())
                .encode();
        // when this address sends its burst and one more
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i <= SYNC_BURST; i++) {
            last = sync(ask, null);
            statuses.add(last.statusCode());
        }
        // expect the burst served, then 429 with Retry-After, typed
        assertThat(statuses.subList(0, SYNC_BURST)).containsOnly(200);
        assertThat(last.statusCode()).isEqualTo(429);
        assertThat(last.headers().firstValue("Retry-After")).isPresent();
        assertThat(JSON.readTree(last.body()).at("/error/code").asText()).isEqualTo("quota_exceeded");
        // while the same address with a credential is another client, served
        assertThat(sync(ask, "Bearer " + TOKEN).statusCode()).isEqualTo(200);
        // and after the wait the address is served again
        Thread.sleep(Long.parseLong(last.headers().firstValue("Retry-After").orElseThrow()) * 1000);
        assertThat(sync(ask, null).statusCode()).isEqualTo(200);
    }

    /**
     * Posts {@code lines} in batches of {@code batch} for {@link #FLOOD}, one batch every
     * {@code every} (at once when zero); a batch refused by the quota is posted again at once, so
     * that every line is let through in the end.
     */
    Tally post(String authorization, List<byte[]> lines, int batch, Duration every) {
        long letThrough = 0;
        long accepted = 0;
        int served = 0;
        int refused = 0;
        List<String> retryAfters = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + FLOOD.toNanos();
        int from = 0;
        try {
            for (long sent = 0; System.nanoTime() < end; sent++) {
                long due = start + sent * every.toNanos();
                if (due > System.nanoTime()) {
                    Thread.sleep(Duration.ofNanos(due - System.nanoTime()).toMillis());
                }
                List<byte[]> part = lines.subList(from, Math.min(lines.size(), from + batch));
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + "/v1/records"))
                        .header("Authorization", authorization).POST(HttpRequest.BodyPublishers.ofByteArray(joined(part))).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 429) {
                    refused++;
                    retryAfters.add(answer.headers().firstValue("Retry-After").orElse("none"));
                    continue;
                }
                assertThat(answer.statusCode()).as(answer.body()).isIn(200, 207);
                served++;
                letThrough += part.size();
                accepted += JSON.readTree(answer.body()).get("accepted").asLong();
                from = from + batch >= lines.size() ? 0 : from + batch;
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return new Tally(letThrough, accepted, served, refused, retryAfters, Duration.ofNanos(System.nanoTime() - start));
    }

    HttpResponse<String> sync(byte[] request, String authorization) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(node.baseUrl() + "/jolt/device-writer/sync"))
                .header("Content-Type", SyncRequest.MEDIA_TYPE).POST(HttpRequest.BodyPublishers.ofByteArray(request));
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    long inputRecords() throws Exception {
        try (TopicReader reader = new TopicReader(broker.bootstrapServers())) {
            return reader.progress(APPLICATION).total();
        }
    }

    static byte[] joined(List<byte[]> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        lines.forEach(l -> {
            out.writeBytes(l);
            out.write('\n');
        });
        return out.toByteArray();
    }

    static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }
}
