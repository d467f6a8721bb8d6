package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.crypto.Verifiers;
import io.jolt.stream.processor.JoltTopology;
import io.jolt.stream.processor.QueryFreshness;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.service.JoltConfig;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Who may do what, on the whole API as HttpApi serves it, without a broker (Kafka Streams made
 * but never started, so that a request let through answers 503 not_ready, or 200 where the route
 * needs no stream): every registered route has a role in the OpenAPI document ({@code x-jolt-role}),
 * and with each role closed and given credentials of its own, every route refuses a request without
 * credentials, with unknown ones or with another role's (401, WWW-Authenticate, the one error
 * shape), and lets its own role's through. Every answer is held to the document (ContractClient).
 */
class HttpRolesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final JsonNode PATHS = OpenApiContract.SERVICE.document().path("paths");

    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    final List<AutoCloseable> opened = new ArrayList<>();
    HttpApi api;

    /** A credential as it is sent: a role's own token, or its own basic user. */
    static String token(HttpRole role) {
        return "Bearer " + role.key() + "-s3cret";
    }

    static String basic(HttpRole role) {
        return "Basic " + Base64.getEncoder().encodeToString((role.key() + "-user:pa55-" + role.key()).getBytes(StandardCharsets.UTF_8));
    }

    /** Every role closed, each with a token and a basic user of its own, nothing shared. */
    static Map<String, String> everyRoleClosedWithItsOwnCredentials() {
        Map<String, String> config = new HashMap<>();
        for (HttpRole role : HttpRole.values()) {
            config.put(role.accessSetting(), "closed");
            config.put(role.tokenSetting(), role.key() + "-s3cret");
            config.put(role.basicSetting(), role.key() + "-user:pa55-" + role.key());
        }
        return config;
    }

    /** The real HttpApi, over a Kafka Streams that is never started and clients of a broker that is not there. */
    void serve(Map<String, String> config) throws Exception {
        String nowhere = "127.0.0.1:" + freePort();
        InMemorySchemaRegistry registry = TopicSchemas.seededRegistry();
        SignatureCheck signatures = Verifiers.fastest().check();
        Properties props = new Properties();
        props.setProperty(StreamsConfig.APPLICATION_ID_CONFIG, "jolt-roles-test");
        props.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, nowhere);
        props.setProperty(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("jolt-roles").toString());
        KafkaStreams streams = new KafkaStreams(JoltTopology.build(registry, operation -> { }, signatures), props);
        opened.add(streams);
        RecordIngest ingest = new RecordIngest(nowhere, registry);
        opened.add(ingest);
        Properties admin = new Properties();
        admin.setProperty("bootstrap.servers", nowhere);
        QueryFreshness freshness = QueryFreshness.start(streams,
                new QueryFreshness.Group("jolt-roles-test", Duration.ofSeconds(45), System.currentTimeMillis()), admin, Duration.ofSeconds(45));
        opened.add(freshness);
        api = HttpApi.start(new HostInfo("127.0.0.1", freePort()), streams, new ServiceReadiness(), signatures, ingest, registry,
                HttpAccess.from(config::get), Optional.empty(), SyncResponder.Limits.DEFAULT, EdgeQuotas.Settings.DEFAULT, freshness,
                Duration.ofSeconds(5));
        opened.add(api);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void everyRegisteredRouteHasARoleInTheOpenApiDocument() throws Exception {
        serve(Map.of());
        assertThat(new TreeSet<>(api.routes())).isEqualTo(OpenApiContract.SERVICE.operations());
        List<String> roles = new ArrayList<>(HttpRole.values().length + 1);
        for (HttpRole role : HttpRole.values()) {
            roles.add(role.key());
        }
        roles.add(HttpRole.PUBLIC);
        for (String route : api.routes()) {
            JsonNode operation = operation(route);
            assertThat(operation.path("x-jolt-role").asText(null)).as(route + " x-jolt-role").isIn(roles);
            if (role(route).isPresent()) {
                assertThat(operation.path("security").toString()).as(route + " security").contains("bearerAuth", "basicAuth");
                assertThat(operation.path("responses").has("401")).as(route + " declares 401").isTrue();
            } else {
                assertThat(operation.path("security").isArray() && operation.path("security").isEmpty()).as(route + " security: []").isTrue();
            }
        }
    }

    @Test
    void everyRouteRefusesWhatItsRoleDoesNotLetInAndLetsItsOwnRoleThrough() throws Exception {
        serve(everyRoleClosedWithItsOwnCredentials());
        int checked = 0;
        for (String route : api.routes()) {
            Optional<HttpRole> role = role(route);
            if (role.isEmpty()) {
                assertThat(send(route, null).statusCode()).as(route + " is public").isNotEqualTo(401);
                continue;
            }
            List<String> wrong = new ArrayList<>();
            wrong.add(null);
            wrong.add("Bearer guessed");
            wrong.add("Basic " + Base64.getEncoder().encodeToString("nobody:guessed".getBytes(StandardCharsets.UTF_8)));
            for (HttpRole other : HttpRole.values()) {
                if (other != role.get()) {
                    wrong.add(token(other));
                    wrong.add(basic(other));
                }
            }
            for (String credentials : wrong) {
                HttpResponse<String> refused = send(route, credentials);
                assertThat(refused.statusCode()).as(route + " (" + role.get().key() + ") with " + credentials).isEqualTo(401);
                assertThat(JSON.readTree(refused.body()).at("/error/code").asText()).isEqualTo("unauthorized");
                assertThat(refused.headers().firstValue("WWW-Authenticate")).as(route).isPresent();
            }
            for (String credentials : List.of(token(role.get()), basic(role.get()))) {
                assertThat(send(route, credentials).statusCode()).as(route + " (" + role.get().key() + ") with its own credentials")
                        .isNotEqualTo(401);
            }
            checked++;
        }
        assertThat(checked).as("routes with a role").isGreaterThanOrEqualTo(HttpRole.values().length);
    }

    @Test
    void theSharedCredentialsLetIntoEveryRole() throws Exception {
        Map<String, String> config = everyRoleClosedWithItsOwnCredentials();
        config.put(HttpAccess.TOKEN, "shared-s3cret");
        serve(config);
        for (String route : api.routes()) {
            assertThat(send(route, "Bearer shared-s3cret").statusCode()).as(route).isNotEqualTo(401);
        }
    }

    @Test
    void byDefaultOnlyIngestMetricsAndPushesAreClosedAsBeforeRoles() throws Exception {
        serve(Map.of(HttpAccess.TOKEN, "shared-s3cret"));
        for (String route : api.routes()) {
            Optional<HttpRole> role = role(route);
            boolean closed = role.filter(r -> r == HttpRole.INGEST || r == HttpRole.METRICS).isPresent();
            assertThat(send(route, null).statusCode() == 401).as(route + " closed").isEqualTo(closed);
        }
    }

    @Test
    void withoutAnyCredentialEveryRouteIsOpen() throws Exception {
        // as the service reads its configuration: every jolt.* default filled in
        Properties file = new Properties();
        file.setProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        JoltConfig config = JoltConfig.of(file, Map.of());
        HttpAccess access = HttpAccess.from(config::get);
        for (HttpRole role : HttpRole.values()) {
            assertThat(access.mode(role)).isEqualTo(HttpAccess.Mode.OPEN);
        }
        HttpAccess shared = HttpAccess.from(JoltConfig.of(file, Map.of("JOLT_HTTP_AUTH_TOKEN", "t"))::get);
        assertThat(shared.mode(HttpRole.INGEST)).isEqualTo(HttpAccess.Mode.CLOSED);
        assertThat(shared.mode(HttpRole.SYNC)).isEqualTo(HttpAccess.Mode.PUSHES);
        assertThat(shared.mode(HttpRole.READ)).isEqualTo(HttpAccess.Mode.OPEN);
        assertThat(shared.mode(HttpRole.ANALYTICS)).isEqualTo(HttpAccess.Mode.OPEN);
        assertThat(shared.mode(HttpRole.METRICS)).isEqualTo(HttpAccess.Mode.CLOSED);
        file.setProperty(HttpRole.INGEST.accessSetting(), "open");
        file.setProperty(HttpRole.SYNC.accessSetting(), "open");
        HttpAccess ownMetrics = HttpAccess.from(JoltConfig.of(file, Map.of("JOLT_HTTP_AUTH_METRICS_BASIC", "prometheus:p"))::get);
        assertThat(ownMetrics.mode(HttpRole.METRICS)).isEqualTo(HttpAccess.Mode.CLOSED);
        assertThat(ownMetrics.principals()).containsExactly("basic:prometheus");
    }

    @Test
    void aClosedRoleNoCredentialLetsIntoIsRefusedAtStart() {
        assertThatThrownBy(() -> HttpAccess.from(Map.of(HttpRole.READ.accessSetting(), "closed")::get))
                .hasMessageContaining("jolt.http.access.read").hasMessageContaining("jolt.http.auth.read.token");
        // ingest is closed by default: a read token alone would leave it closed to everyone
        assertThatThrownBy(() -> HttpAccess.from(Map.of(HttpRole.READ.tokenSetting(), "t")::get))
                .hasMessageContaining("jolt.http.access.ingest");
        assertThatThrownBy(() -> HttpAccess.from(Map.of(HttpRole.READ.accessSetting(), "pushes", HttpAccess.TOKEN, "t")::get))
                .hasMessageContaining("open or closed");
        HttpAccess readOnly = HttpAccess.from(Map.of(HttpRole.READ.tokenSetting(), "t", HttpRole.READ.accessSetting(), "closed",
                HttpRole.INGEST.accessSetting(), "open", HttpRole.SYNC.accessSetting(), "open", HttpRole.METRICS.accessSetting(), "open")::get);
        assertThat(readOnly.mode(HttpRole.READ)).isEqualTo(HttpAccess.Mode.CLOSED);
        assertThat(readOnly.mode(HttpRole.ANALYTICS)).isEqualTo(HttpAccess.Mode.OPEN);
    }

    @Test
    void oneSecretConfiguredForTwoRolesLetsIntoBothAndIsOneClient() {
        HttpAccess access = HttpAccess.from(Map.of(HttpRole.READ.tokenSetting(), "same", HttpRole.ANALYTICS.tokenSetting(), "same",
                HttpRole.INGEST.basicSetting(), "w:p", HttpRole.METRICS.basicSetting(), "w:p", HttpRole.SYNC.accessSetting(), "open")::get);
        assertThat(access.principals()).containsExactlyInAnyOrder("token:read", "basic:w");
        assertThat(access.mode(HttpRole.INGEST)).isEqualTo(HttpAccess.Mode.CLOSED);
        assertThat(access.mode(HttpRole.METRICS)).isEqualTo(HttpAccess.Mode.CLOSED);
    }

    private static JsonNode operation(String route) {
        String[] methodPath = route.split(" ", 2);
        return PATHS.path(methodPath[1]).path(methodPath[0].toLowerCase(Locale.ROOT));
    }

    /** The route's role as the OpenAPI document says; empty for a public route. */
    private static Optional<HttpRole> role(String route) {
        String role = operation(route).path("x-jolt-role").asText();
        return role.equals(HttpRole.PUBLIC) ? Optional.empty() : Optional.of(HttpRole.valueOf(role.toUpperCase(Locale.ROOT)));
    }

    /** A request on the route, its parameters filled in, with {@code authorization} when not null. */
    private HttpResponse<String> send(String route, String authorization) throws Exception {
        String[] methodPath = route.split(" ", 2);
        String path = methodPath[1].replace("{file}", "index.html").replace("{subject}", "jolt.state-value").replace("{version}", "1")
                .replace("{id}", "1");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + path)).timeout(Duration.ofSeconds(10))
                .method(methodPath[0], methodPath[0].equals("POST") ? HttpRequest.BodyPublishers.ofByteArray(new byte[0])
                        : HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
