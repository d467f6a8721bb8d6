package io.jolt.stream.api;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.protocol.AuthorityRecord;
import io.jolt.stream.protocol.Vectors;
import io.jolt.stream.protocol.json.RecordJson;
import io.jolt.stream.protocol.sync.Cursor;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.service.JoltNode;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.KafkaBroker;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.testing.StreamHarness;
import io.jolt.stream.wire.TopicSchemas;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The HTTP edges, fuzzed against a running instance: mutated and random {@code /v1/records}
 * bodies (invalid UTF-8, deep nesting, huge lines), random query parameters and page tokens,
 * mutated sync requests. Every answer is a documented one (a 2xx, or a 4xx carrying an
 * {@code error.code} or per-line reasons), never a 500, never a hang (each request has 30 s),
 * and the instance keeps serving.
 */
class HttpEdgesFuzzIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = new ContractClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(),
            OpenApiContract.SERVICE);
    static KafkaBroker broker;
    static JoltNode node;
    static List<byte[]> lines;
    static String identity;

    @BeforeContainer
    static void startAnInstanceWithTheMixedScenarios() throws Exception {
        broker = KafkaBroker.start();
        StreamHarness harness = new StreamHarness(broker);
        node = JoltNode.start(harness.config("jolt-it-fuzz", StreamHarness.tempStateDir("fuzz"), 2).with(JoltNode.HTTP_PORT, "0")
                .with("num.stream.threads", "1"), TopicSchemas.seededRegistry()).awaitRunning(Duration.ofSeconds(60));
        lines = Vectors.lines("mixed");
        assertThat(post("/v1/records", Files.readAllBytes(Vectors.bundle("mixed"))).statusCode()).isIn(200, 207);
        harness.awaitProcessed("jolt-it-fuzz", Duration.ofSeconds(60));
        identity = lines.stream().map(RecordJson::read).filter(l -> l instanceof RecordJson.AuthorityLine a && a.record() != null)
                .map(l -> ((RecordJson.AuthorityLine) l).identity()).findFirst().orElseThrow();
        awaitHealthy();
    }

    @AfterContainer
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    void recordBodiesGetTypedAnswers(@ForAll("recordBodies") byte[] body) throws Exception {
        HttpResponse<String> answer = post("/v1/records", body);
        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 207, 413, 422);
        JsonNode json = JSON.readTree(answer.body());
        if (answer.statusCode() == 413) {
            assertThat(errorCode(answer)).isEqualTo("body_too_large");
        } else {
            json.get("results").forEach(r -> assertThat(r.get("accepted").asBoolean() || r.hasNonNull("reason")).as(r.toString()).isTrue());
        }
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    void queryParametersGetTypedAnswers(@ForAll("queries") String pathAndQuery) throws Exception {
        HttpResponse<String> answer = get(pathAndQuery);
        assertThat(answer.statusCode()).as(pathAndQuery + " -> " + answer.body()).isIn(200, 400, 404, 410);
        if (answer.statusCode() >= 400) {
            assertThat(errorCode(answer)).as(pathAndQuery + " -> " + answer.body()).isNotEmpty();
        }
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    void syncRequestsGetTypedAnswers(@ForAll("syncBodies") byte[] body) throws Exception {
        HttpResponse<String> answer = post("/jolt/device-writer/sync", body);
        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 400, 410, 413);
        if (answer.statusCode() >= 400) {
            assertThat(errorCode(answer)).isIn("bad_sync_request", "history_forgotten", "body_too_large");
        }
        awaitHealthy(); // and the instance still serves
    }

    @Provide
    Arbitrary<byte[]> recordBodies() {
        Arbitrary<byte[]> valid = Arbitraries.of(lines);
        return Arbitraries.frequencyOf(
                Tuple.of(10, mutated(valid)),
                Tuple.of(5, Arbitraries.bytes().array(byte[].class).ofMaxSize(4096)),
                Tuple.of(5, valid.list().ofMinSize(1).ofMaxSize(20).map(HttpEdgesFuzzIT::joined)),
                Tuple.of(2, Arbitraries.of(invalidUtf8())),
                Tuple.of(2, Arbitraries.integers().between(1, 5000).map(depth -> ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.UTF_8))),
                Tuple.of(2, Arbitraries.integers().between(1, 5000)
                        .map(depth -> ("{\"a\":".repeat(depth) + "1" + "}".repeat(depth)).getBytes(StandardCharsets.UTF_8))),
                // Huge lines are costly (8 MiB each): a few of them say what a few hundred would.
                Tuple.of(1, Arbitraries.of(hugeLine((int) RecordsEndpoint.MAX_BODY_BYTES - 16), hugeLine((int) RecordsEndpoint.MAX_BODY_BYTES + 1))),
                Tuple.of(5, Arbitraries.strings().ofMaxLength(200).map(s -> s.getBytes(StandardCharsets.UTF_8))));
    }

    @Provide
    Arbitrary<String> queries() {
        Arbitrary<String> junk = Arbitraries.strings().ofMaxLength(80);
        Arbitrary<String> id = Arbitraries.oneOf(Arbitraries.just(identity), junk.filter(s -> !s.isEmpty()));
        Arbitrary<String> path = Arbitraries.oneOf(Arbitraries.of("/profile", "/notes/1", "/", "//", "/a/../b", "/%00"), junk);
        Arbitrary<String> limit = Arbitraries.oneOf(Arbitraries.integers().between(-5, 2000).map(String::valueOf), junk);
        return Arbitraries.oneOf(
                Combinators.combine(id, path).as((i, p) -> "/v1/identities/" + enc(i) + "/resolve?path=" + enc(p)),
                Combinators.combine(id, path, limit, junk).as((i, p, l, t) ->
                        "/v1/identities/" + enc(i) + "/enumerate?prefix=" + enc(p) + "&limit=" + enc(l) + "&page_token=" + enc(t)),
                id.map(i -> "/v1/identities/" + enc(i)),
                id.map(i -> "/v1/identities/" + enc(i) + "/conflicts"));
    }

    @Provide
    Arbitrary<byte[]> syncBodies() {
        AuthorityRecord authority = lines.stream().map(RecordJson::read).filter(l -> l instanceof RecordJson.AuthorityLine a && a.record() != null)
                .map(l -> ((RecordJson.AuthorityLine) l).record()).findFirst().orElseThrow();
        SyncRequest ask = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL,
                List.of(new Cursor("dev_a", 0, io.jolt.stream.protocol.Hash.blake3(new byte[] {1}))), List.of(), List.of());
        SyncRequest push = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, List.of(),
                List.of(new SyncRequest.SignedBytes(authority.bodyBytes(), authority.signature())), List.of());
        Arbitrary<byte[]> valid = Arbitraries.of(ask.encode(), push.encode());
        return Arbitraries.frequencyOf(Tuple.of(10, mutated(valid)), Tuple.of(5, Arbitraries.bytes().array(byte[].class).ofMaxSize(2048)),
                Tuple.of(1, Arbitraries.just(new byte[(int) RecordsEndpoint.MAX_BODY_BYTES + 1])));
    }

    /** A valid input with a few bytes flipped, cut short, or grown by random bytes. */
    private static Arbitrary<byte[]> mutated(Arbitrary<byte[]> valid) {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        return Arbitraries.oneOf(
                Combinators.combine(valid, at.list().ofMinSize(1).ofMaxSize(4), Arbitraries.bytes()).as((v, positions, b) -> {
                    byte[] copy = v.clone();
                    positions.forEach(p -> copy[p % copy.length] ^= (byte) (b | 1));
                    return copy;
                }),
                Combinators.combine(valid, at).as((v, p) -> Arrays.copyOf(v, p % v.length)),
                Combinators.combine(valid, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64)).as((v, tail) -> {
                    byte[] grown = Arrays.copyOf(v, v.length + tail.length);
                    System.arraycopy(tail, 0, grown, v.length, tail.length);
                    return grown;
                }));
    }

    private static List<byte[]> invalidUtf8() {
        List<byte[]> out = new ArrayList<>();
        for (byte[] bad : List.of(new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xF8, 1, 2},
                new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0xFF, (byte) 0xFE})) {
            byte[] line = ("{\"kind\":\"entry\",\"identity\":\"").getBytes(StandardCharsets.UTF_8);
            byte[] withBad = Arrays.copyOf(line, line.length + bad.length + 2);
            System.arraycopy(bad, 0, withBad, line.length, bad.length);
            withBad[withBad.length - 2] = '"';
            withBad[withBad.length - 1] = '}';
            out.add(withBad);
        }
        return out;
    }

    private static byte[] hugeLine(int size) {
        byte[] line = new byte[size];
        Arrays.fill(line, (byte) 'a');
        line[0] = '"';
        line[size - 1] = '"';
        return line;
    }

    private static byte[] joined(List<byte[]> some) {
        return String.join("\n", some.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList()).getBytes(StandardCharsets.UTF_8);
    }

    /** The API's error code; the answer must be the API's JSON error shape. */
    private static String errorCode(HttpResponse<String> answer) {
        assertThat(answer.headers().firstValue("Content-Type").orElse("")).as(answer.statusCode() + " " + answer.body()).startsWith("application/json");
        try {
            return JSON.readTree(answer.body()).at("/error/code").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + answer.body(), e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void awaitHealthy() throws Exception {
        await("instance serving").atMost(Duration.ofSeconds(60)).until(() -> get("/health").statusCode() == 200);
    }

    private static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + pathAndQuery)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(node.baseUrl() + path)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
