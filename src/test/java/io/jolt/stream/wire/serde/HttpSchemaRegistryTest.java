package io.jolt.stream.wire.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.processor.MergedTable;
import io.jolt.stream.processor.TopologyFixture;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.VectorRecords;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP registry client against a minimal fake that implements only the two Confluent
 * endpoints (and answers anything else with an error the test sees): nothing else is called.
 */
class HttpSchemaRegistryTest {
    static final ObjectMapper JSON = new ObjectMapper();

    HttpServer server;
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    final Map<Integer, String> byId = new ConcurrentHashMap<>();
    final Map<String, Integer> idBySchema = new ConcurrentHashMap<>();
    final AtomicInteger failuresToInject = new AtomicInteger();
    volatile String authorization;

    @BeforeEach
    void startFake() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stopFake() {
        server.stop(0);
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        calls.add(exchange.getRequestMethod() + " " + path);
        authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (failuresToInject.getAndDecrement() > 0) {
            respond(exchange, 503, "{\"error_code\":50003,\"message\":\"try again\"}");
            return;
        }
        if (exchange.getRequestMethod().equals("POST") && path.matches("/subjects/[^/]+/versions")) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            String schema = body.get("schema").asText();
            int id = idBySchema.computeIfAbsent(schema, s -> {
                int next = byId.size() + 1;
                byId.put(next, s);
                return next;
            });
            respond(exchange, 200, "{\"id\":" + id + "}");
        } else if (exchange.getRequestMethod().equals("GET") && path.matches("/schemas/ids/\\d+")) {
            String schema = byId.get(Integer.parseInt(path.substring(path.lastIndexOf('/') + 1)));
            if (schema == null) {
                respond(exchange, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
            } else {
                respond(exchange, 200, JSON.createObjectNode().put("schema", schema).toString());
            }
        } else {
            unexpected.add(exchange.getRequestMethod() + " " + path);
            respond(exchange, 404, "{\"error_code\":40401,\"message\":\"not implemented by the fake\"}");
        }
    }

    static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Test
    void recordsWrittenThroughTheRegistryAreReadBackByIdFromAnotherClient() {
        HttpSchemaRegistry writer = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults().withBasicAuth("jolt", "secret"));
        StateChange change = new StateChange("jolt1x", "/p", io.jolt.stream.avro.PathState.NOT_FOUND, null, null, 0);
        byte[] bytes = new ConfluentAvroSerde<StateChange>(writer, StateChange.getClassSchema()).serialize(Topics.STATE, change);
        assertThat(bytes[0]).isZero();
        HttpSchemaRegistry reader = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults());
        assertThat(new ConfluentAvroSerde<StateChange>(reader, StateChange.getClassSchema()).deserialize(Topics.STATE, bytes)).isEqualTo(change);
        assertThat(calls).containsExactly("POST /subjects/jolt.state.v2-value/versions", "GET /schemas/ids/1");
        assertThat(unexpected).isEmpty();
    }

    @Test
    void bothDirectionsAreCached() {
        HttpSchemaRegistry registry = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults());
        int id = registry.register("s-value", StateChange.getClassSchema());
        registry.register("s-value", StateChange.getClassSchema());
        registry.schemaById(id);
        assertThat(calls).containsExactly("POST /subjects/s-value/versions");
    }

    @Test
    void anUnknownIdIsTheTypedUnknownSchemaErrorAndServerErrorsAreRetried() {
        failuresToInject.set(1);
        HttpSchemaRegistry registry = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults());
        assertThatThrownBy(() -> registry.schemaById(77)).isInstanceOf(SchemaRegistry.UnknownSchemaException.class);
        assertThat(calls).containsExactly("GET /schemas/ids/77", "GET /schemas/ids/77");
    }

    @Test
    void basicAuthIsSent() {
        new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults().withBasicAuth("jolt", "secret"))
                .register("s-value", StateChange.getClassSchema());
        assertThat(authorization).isEqualTo("Basic " + java.util.Base64.getEncoder().encodeToString("jolt:secret".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void registryErrorsNameTheirCode() {
        HttpSchemaRegistry registry = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults().withAutoRegister(false));
        assertThatThrownBy(() -> registry.register("s-value", StateChange.getClassSchema()))
                .isInstanceOf(HttpSchemaRegistry.RegistryException.class).hasMessageContaining("40401");
    }

    @Test
    void theTopologyWithTheHttpRegistryReachesTheSameStateAsWithTheInMemoryOne() throws Exception {
        HttpSchemaRegistry registry = new HttpSchemaRegistry(url(), HttpSchemaRegistry.Options.defaults());
        List<VectorRecords> records = VectorRecords.of("mixed", registry);
        assertThat(TopologyFixture.topology().withRegistry(registry).given(records).whenProcessed().state()).isEqualTo(MergedTable.expected("mixed"));
        assertThat(unexpected).isEmpty();
    }
}
