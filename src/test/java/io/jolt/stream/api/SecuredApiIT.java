package io.jolt.stream.api;

import static io.jolt.stream.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.protocol.AuthorityRecord;
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
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances serving HTTPS only (Jetty's TLS, a certificate made by keytool for 127.0.0.1),
 * writes, /metrics and (by {@code jolt.http.access.read=closed}) reads behind a bearer token or basic
 * auth: without credentials a write gets 401 and nothing reaches Kafka; a read is forwarded between
 * instances over TLS with the credentials it came with.
 */
@ExtendWith(RealKafka.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecuredApiIT {
    static final String TOKEN = "s3cret-token";
    static final String BASIC = "scraper:pa55";
    static final String APPLICATION = "jolt-it-secured";
    JoltNode a;
    JoltNode b;
    HttpClient https;
    KafkaBroker broker;
    String identity;

    @BeforeAll
    void startTwoSecuredInstances(KafkaBroker broker) throws Exception {
        this.broker = broker;
        StreamHarness harness = new StreamHarness(broker);
        harness.resetTopics();
        Path keystore = keystore();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        a = JoltNode.start(secured(harness, keystore, "secured-a"), registry).awaitRunning(Duration.ofSeconds(60));
        b = JoltNode.start(secured(harness, keystore, "secured-b"), registry).awaitRunning(Duration.ofSeconds(60));
        https = new ContractClient(HttpClient.newBuilder().sslContext(trusting(keystore)).connectTimeout(Duration.ofSeconds(5)).build(),
                OpenApiContract.SERVICE);
        assertThat(a.baseUrl()).startsWith("https://");
        assertThat(send(post(a, "/v1/records", Files.readAllBytes(Vectors.bundle("mixed"))).header("Authorization", "Bearer " + TOKEN))
                .statusCode()).isIn(200, 207);
        harness.awaitProcessed(APPLICATION, Duration.ofSeconds(60));
        identity = firstAuthority().body().identity();
        for (JoltNode node : List.of(a, b)) {
            await("instance ready").atMost(Duration.ofSeconds(60)).until(() -> send(get(node, "/health")).statusCode() == 200);
        }
        // The second instance's join moves partitions (and Kafka Streams may move them again once its warm-up
        // catches up): reads are 503 not_ready or stale meanwhile, as documented. The tests begin once both answer.
        for (JoltNode node : List.of(a, b)) {
            await("reads answered by " + node.baseUrl()).atMost(Duration.ofSeconds(60)).until(() ->
                    send(get(node, "/v1/identities/" + identity).header("Authorization", "Bearer " + TOKEN)).statusCode() == 200);
        }
    }

    @AfterAll
    void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    @Test
    void closedReadsAreForwardedOverTlsWithTheirCredentials() throws Exception {
        for (JoltNode node : List.of(a, b)) {
            assertThat(send(get(node, "/v1/identities/" + identity)).statusCode()).as("read closed").isEqualTo(401);
        }
        HttpResponse<String> fromA = send(get(a, "/v1/identities/" + identity).header("Authorization", "Bearer " + TOKEN));
        HttpResponse<String> fromB = send(get(b, "/v1/identities/" + identity).header("Authorization", basic(BASIC)));
        assertThat(fromA.statusCode()).as(fromA.body()).isEqualTo(200);
        assertThat(fromB.body()).as("one of the two forwarded the query to the other, over HTTPS").isEqualTo(fromA.body());
    }

    @Test
    void plainHttpIsNotServed() {
        String plain = a.baseUrl().replace("https://", "http://");
        int status;
        try {
            status = ContractClient.of(OpenApiContract.SERVICE).send(HttpRequest.newBuilder(URI.create(plain + "/health")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (IOException | InterruptedException e) {
            status = -1;
        }
        assertThat(status).as("no answer, or a refusal, over plain HTTP").isNotEqualTo(200);
    }

    @Test
    void aWriteWithoutCredentialsGets401AndNothingReachesKafka() throws Exception {
        byte[] line = Vectors.lines("mixed").get(0);
        long before = inputRecords();
        for (HttpRequest.Builder request : List.of(post(b, "/v1/records", line), post(b, "/v1/records", line).header("Authorization", "Bearer wrong"),
                post(b, "/v1/records", line).header("Authorization", basic("scraper:wrong")))) {
            HttpResponse<String> refused = send(request);
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.body()).contains("\"code\":\"unauthorized\"");
            assertThat(refused.headers().firstValue("WWW-Authenticate")).isPresent();
        }
        assertThat(inputRecords()).as("nothing produced").isEqualTo(before);
        assertThat(send(post(b, "/v1/records", line).header("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(200);
        assertThat(send(post(b, "/v1/records", line).header("Authorization", basic(BASIC))).statusCode()).isEqualTo(200);
        assertThat(inputRecords()).isEqualTo(before + 2);
    }

    @Test
    void metricsNeedCredentials() throws Exception {
        assertThat(send(get(a, "/metrics")).statusCode()).isEqualTo(401);
        assertThat(send(get(a, "/metrics").header("Authorization", basic(BASIC))).statusCode()).isEqualTo(200);
    }

    @Test
    void aSyncRequestThatPushesRecordsNeedsCredentialsOneThatOnlyAsksDoesNot() throws Exception {
        AuthorityRecord authority = firstAuthority();
        SyncRequest ask = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, List.of(), List.of(),
                List.of());
        SyncRequest push = new SyncRequest(identity, SyncResponder.KNOWN_OPERATION_LEVEL, SyncResponder.KNOWN_SYNC_LEVEL, List.of(),
                List.of(new SyncRequest.SignedBytes(authority.bodyBytes(), authority.signature())), List.of());
        long before = inputRecords();
        assertThat(send(post(a, "/jolt/device-writer/sync", push.encode())).statusCode()).isEqualTo(401);
        assertThat(send(post(b, "/jolt/device-writer/sync", ask.encode())).statusCode()).isEqualTo(200);
        assertThat(inputRecords()).isEqualTo(before);
        // Pushed to each instance, owner or not: the one that received the push produces it (a non-owner once dropped it).
        for (JoltNode node : List.of(a, b)) {
            assertThat(send(post(node, "/jolt/device-writer/sync", push.encode()).header("Authorization", "Bearer " + TOKEN)).statusCode())
                    .isEqualTo(200);
        }
        // pushed records are produced without waiting for the acknowledgement
        await("both pushes produced").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> inputRecords() >= before + 2);
        assertThat(inputRecords()).as("both pushes produced").isEqualTo(before + 2);
    }

    private io.jolt.stream.service.JoltConfig secured(StreamHarness harness, Path keystore, String name) throws Exception {
        return harness.config(APPLICATION, StreamHarness.tempStateDir(name), 4).with(JoltNode.HTTP_PORT, "0").with("num.stream.threads", "1")
                .with(HttpTls.KEYSTORE, keystore.toString()).with(HttpTls.KEYSTORE_PASSWORD, "changeit")
                .with(HttpAccess.TOKEN, TOKEN).with(HttpAccess.BASIC, BASIC).with(HttpRole.READ.accessSetting(), "closed");
    }

    private static AuthorityRecord firstAuthority() {
        return Vectors.lines("mixed").stream().map(RecordJson::read).filter(l -> l instanceof RecordJson.AuthorityLine a && a.record() != null)
                .map(l -> ((RecordJson.AuthorityLine) l).record()).findFirst().orElseThrow();
    }

    private long inputRecords() throws Exception {
        try (TopicReader reader = new TopicReader(broker.bootstrapServers())) {
            return reader.progress(APPLICATION).total();
        }
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpRequest.Builder get(JoltNode node, String path) {
        return HttpRequest.newBuilder(URI.create(node.baseUrl() + path)).GET();
    }

    private static HttpRequest.Builder post(JoltNode node, String path, byte[] body) {
        return HttpRequest.newBuilder(URI.create(node.baseUrl() + path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return https.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A PKCS12 key store with a self-signed certificate for 127.0.0.1, made by the JDK's keytool. */
    private static Path keystore() throws Exception {
        Path store = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tls-").resolve("jolt.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", "jolt",
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(out).isZero();
        return store;
    }

    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
