package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.http.HttpServer;
import io.jolt.stream.http.OpenApiDocument;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.OpenApiContract;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The quotas of the HTTP edge on a server of the API's kind, without a broker: whose bucket a
 * request takes from, the 429 (Retry-After, the one error shape, as the OpenAPI document says),
 * the 413 of a batch no wait would let through, the bound on syncs served at once, and the
 * refusals counted by route, client and reason. The buckets' clock moves only when the test
 * moves it.
 */
class EdgeQuotasTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String TOKEN = "s3cret-token";
    /** The one other instance of the application, as it marks the requests it forwards. */
    static final String PEER = "127.0.0.1:1";
    static final String BASIC = "writer:pa55";

    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final ManualClock clock = new ManualClock();
    /** Sync requests wait here while the test holds them in flight. */
    volatile CountDownLatch release = new CountDownLatch(0);
    final CountDownLatch entered = new CountDownLatch(2);
    HttpServer server;

    /** The two routes as HttpApi holds them to the quotas, answering as an empty body and an empty sync would. */
    void serve(EdgeQuotas.Settings settings) {
        // The instance's peer check (OwnerRouting.forwardedByPeer) stood in for: PEER is the one other instance.
        EdgeQuotas quotas = new EdgeQuotas(settings, HttpAccess.from(Map.of(HttpAccess.TOKEN, TOKEN, HttpAccess.BASIC, BASIC)::get), metrics,
                ctx -> PEER.equals(ctx.header(OwnerRouting.FORWARDED)), clock);
        server = new HttpServer(new OpenApiDocument("/openapi/jolt-api.json"), config -> {});
        server.app().post("/v1/records", ctx -> {
            quotas.admitRecords(ctx, ctx.body().lines().filter(l -> !l.isEmpty()).count());
            ctx.contentType("application/json").result("{\"results\":[],\"accepted\":0,\"rejected\":0}");
        });
        server.app().post("/jolt/device-writer/sync", ctx -> quotas.sync(ctx, c -> {
            entered.countDown();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            c.contentType(SyncRequest.MEDIA_TYPE).result(new byte[0]);
        }));
        server.app().start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void eachCredentialAndEachAddressTakesFromABucketOfItsOwn() throws Exception {
        // given 2 lines a second, 10 at once, for every client
        serve(new EdgeQuotas.Settings(new Quota(2, 10), new Quota(0, 1), 4));
        // when the token's client posts its burst, then more
        assertThat(records(10, "Bearer " + TOKEN).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = records(5, "Bearer " + TOKEN);
        // expect 429, typed, with the wait until 5 tokens are back: 2.5 s, rounded up
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("quota_exceeded");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("3");
        // while the basic user and an address without credentials each have their own burst
        assertThat(records(10, basic(BASIC)).statusCode()).isEqualTo(200);
        assertThat(records(10, null).statusCode()).isEqualTo(200);
        // and a credential that is not configured is no client of its own: it is the address, now drained
        assertThat(records(1, "Bearer guessed").statusCode()).isEqualTo(429);
        // when the wait has passed, expect the token's client served again
        clock.advance(Duration.ofMillis(2500));
        assertThat(records(5, "Bearer " + TOKEN).statusCode()).isEqualTo(200);
        // expect the refusals counted by client name, never by secret or address
        String scraped = metrics.scrape();
        assertThat(scraped).contains("jolt_http_quota_refused_total{client=\"token\",reason=\"rate\",route=\"/v1/records\"} 1.0",
                "jolt_http_quota_refused_total{client=\"address\",reason=\"rate\",route=\"/v1/records\"} 1.0",
                "jolt_http_quota_refused_total{client=\"basic:writer\",reason=\"rate\",route=\"/v1/records\"} 0.0")
                .doesNotContain(TOKEN, "pa55", "127.0.0.1");
    }

    @Test
    void aBatchNoWaitWouldLetThroughIs413NotA429AndTakesNothing() throws Exception {
        serve(new EdgeQuotas.Settings(new Quota(2, 10), new Quota(0, 1), 4));
        HttpResponse<String> refused = records(11, null);
        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("batch_over_burst");
        assertThat(JSON.readTree(refused.body()).at("/error/message").asText()).contains("11 lines", "10", "smaller batches");
        assertThat(refused.headers().firstValue("Retry-After")).as("no wait helps").isEmpty();
        assertThat(records(10, null).statusCode()).as("the bucket is still full").isEqualTo(200);
        assertThat(metrics.scrape()).contains("jolt_http_quota_refused_total{client=\"address\",reason=\"burst\",route=\"/v1/records\"} 1.0");
    }

    @Test
    void aRateOfZeroIsNoQuota() throws Exception {
        serve(new EdgeQuotas.Settings(new Quota(0, 1), new Quota(0, 1), 4));
        for (int i = 0; i < 5; i++) {
            assertThat(records(100, null).statusCode()).isEqualTo(200);
            assertThat(sync(Map.of()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aSyncRequestTakesATokenWhereItIsReceivedNotWhereItIsForwarded() throws Exception {
        // given 1 sync request a second, 2 at once
        serve(new EdgeQuotas.Settings(new Quota(0, 1), new Quota(1, 2), 4));
        assertThat(sync(Map.of()).statusCode()).isEqualTo(200);
        assertThat(sync(Map.of()).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = sync(Map.of());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("quota_exceeded");
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(sync(Map.of(OwnerRouting.FORWARDED, PEER)).statusCode()).as("charged by the instance that forwarded it").isEqualTo(200);
        assertThat(sync(Map.of(OwnerRouting.FORWARDED, "127.0.0.1:2")).statusCode()).as("a mark no peer wrote is charged as any").isEqualTo(429);
        assertThat(sync(Map.of("Authorization", "Bearer " + TOKEN)).statusCode()).as("the token's own bucket").isEqualTo(200);
    }

    @Test
    void syncsBeyondTheBoundAreRefusedUntilOneEnds() throws Exception {
        // given at most 2 sync requests served at once, and 2 held in flight
        serve(new EdgeQuotas.Settings(new Quota(0, 1), new Quota(0, 1), 2));
        release = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> held = List.of(syncAsync(Map.of()), syncAsync(Map.of("Authorization", basic(BASIC))));
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        // when a third comes, forwarded or not, expect 429, retry after a second
        for (Map<String, String> headers : List.of(Map.<String, String>of(), Map.of(OwnerRouting.FORWARDED, PEER))) {
            HttpResponse<String> refused = sync(headers);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("too_many_concurrent_syncs");
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        }
        // when the two end, expect them served and the slots free again
        release.countDown();
        for (CompletableFuture<HttpResponse<String>> answer : held) {
            assertThat(answer.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(sync(Map.of()).statusCode()).isEqualTo(200);
        assertThat(metrics.scrape()).contains(
                "jolt_http_quota_refused_total{client=\"address\",reason=\"concurrency\",route=\"/jolt/device-writer/sync\"} 2.0");
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        assertThat(EdgeQuotas.retryAfterSeconds(Duration.ofNanos(1))).isEqualTo(1);
        assertThat(EdgeQuotas.retryAfterSeconds(Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(EdgeQuotas.retryAfterSeconds(Duration.ofMillis(1001))).isEqualTo(2);
        assertThat(EdgeQuotas.retryAfterSeconds(Duration.ZERO)).isEqualTo(1);
    }

    HttpResponse<String> records(int lines, String authorization) throws Exception {
        byte[] body = "{}\n".repeat(lines).getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "/v1/records")).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> sync(Map<String, String> headers) throws Exception {
        return syncAsync(headers).get(10, TimeUnit.SECONDS);
    }

    CompletableFuture<HttpResponse<String>> syncAsync(Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "/jolt/device-writer/sync"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {1}));
        headers.forEach(request::header);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    String base() {
        return "http://127.0.0.1:" + server.port();
    }

    static String basic(String credentials) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }
}
