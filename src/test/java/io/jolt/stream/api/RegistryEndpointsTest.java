package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jolt.stream.avro.StateChange;
import io.jolt.stream.http.HttpServer;
import io.jolt.stream.http.OpenApiDocument;
import io.jolt.stream.testing.ContractClient;
import io.jolt.stream.testing.OpenApiContract;
import io.jolt.stream.wire.TopicSchemas;
import io.jolt.stream.wire.Topics;
import io.jolt.stream.wire.serde.HttpSchemaRegistry;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded registry, read-only under the Confluent Schema Registry's REST paths, as a
 * Confluent client meets it: every answer held to the OpenAPI document (ContractClient), errors
 * with Confluent's codes, and the service's own Confluent-REST client reading through it.
 */
class RegistryEndpointsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String STATE_SUBJECT = Topics.STATE + "-value";

    final HttpClient http = ContractClient.of(OpenApiContract.SERVICE);
    final InMemorySchemaRegistry embedded = TopicSchemas.seededRegistry();
    HttpServer server;

    record Answer(int status, String contentType, JsonNode body) {}

    /** The registry routes alone on a server of the API's kind, as HttpApi mounts them. */
    String serve(SchemaRegistry registry) {
        server = new HttpServer(new OpenApiDocument("/openapi/jolt-api.json"), config -> {});
        new RegistryEndpoints(registry).routes(server.app());
        server.app().start("127.0.0.1", 0);
        return "http://127.0.0.1:" + server.port() + RegistryEndpoints.PATH;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    Answer get(String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), JSON.readTree(r.body()));
    }

    static Schema evolved() {
        return SchemaBuilder.record("Evolved").namespace("io.jolt.test").fields().optionalString("note").endRecord();
    }

    @Test
    void theSubjectsAreEveryTopicsValueSubjectByName() throws Exception {
        String registry = serve(embedded);

        Answer subjects = get(registry + "/subjects");

        assertThat(subjects.status()).isEqualTo(200);
        assertThat(subjects.contentType()).isEqualTo(RegistryEndpoints.CONTENT_TYPE);
        assertThat(JSON.convertValue(subjects.body(), List.class)).isEqualTo(TopicSchemas.bySubject().keySet().stream().sorted().toList());
    }

    @Test
    void aSchemaByIdIsTheOneValuesWithThatIdWereWrittenWithAndNamesNoTypeForAvro() throws Exception {
        String registry = serve(embedded);
        int id = embedded.register(STATE_SUBJECT, StateChange.getClassSchema());

        Answer schema = get(registry + "/schemas/ids/" + id + "?fetchMaxId=false&subject=" + STATE_SUBJECT);

        assertThat(schema.status()).isEqualTo(200);
        assertThat(schema.body().properties()).extracting(java.util.Map.Entry::getKey).containsExactly("schema");
        assertThat(new Schema.Parser().parse(schema.body().get("schema").asText())).isEqualTo(StateChange.getClassSchema());
        assertThat(get(registry + "/schemas/types").body()).isEqualTo(JSON.readTree("[\"AVRO\"]"));
    }

    @Test
    void eachVersionOfASubjectNamesItsIdAndSchemaAndLatestIsTheLast() throws Exception {
        String registry = serve(embedded);
        int first = embedded.register(STATE_SUBJECT, StateChange.getClassSchema());
        int second = embedded.register(STATE_SUBJECT, evolved());

        Answer versions = get(registry + "/subjects/" + STATE_SUBJECT + "/versions");
        Answer one = get(registry + "/subjects/" + STATE_SUBJECT + "/versions/1");
        Answer latest = get(registry + "/subjects/" + STATE_SUBJECT + "/versions/latest");
        Answer minusOne = get(registry + "/subjects/" + STATE_SUBJECT + "/versions/-1");

        assertThat(versions.body()).isEqualTo(JSON.readTree("[1, 2]"));
        assertThat(one.body()).isEqualTo(JSON.createObjectNode().put("subject", STATE_SUBJECT).put("version", 1).put("id", first)
                .put("schema", StateChange.getClassSchema().toString()));
        assertThat(latest.body().get("version").asInt()).isEqualTo(2);
        assertThat(latest.body().get("id").asInt()).isEqualTo(second);
        assertThat(new Schema.Parser().parse(latest.body().get("schema").asText())).isEqualTo(evolved());
        assertThat(minusOne.body()).isEqualTo(latest.body());
    }

    @Test
    void aSchemaNamesEverySubjectAndVersionHoldingIt() throws Exception {
        String registry = serve(embedded);
        int id = embedded.register(STATE_SUBJECT, StateChange.getClassSchema());
        embedded.register("a-copy-value", evolved());
        embedded.register("a-copy-value", StateChange.getClassSchema());

        Answer holders = get(registry + "/schemas/ids/" + id + "/versions");

        assertThat(holders.body()).isEqualTo(JSON.readTree("[{\"subject\": \"a-copy-value\", \"version\": 2}, "
                + "{\"subject\": \"" + STATE_SUBJECT + "\", \"version\": 1}]"));
    }

    @Test
    void whatIsMissingAnswers404WithConfluentsCodeForWhatItIs() throws Exception {
        String registry = serve(embedded);

        Answer subject = get(registry + "/subjects/no.such.topic-value/versions");
        Answer subjectOfVersion = get(registry + "/subjects/no.such.topic-value/versions/latest");
        Answer version = get(registry + "/subjects/" + STATE_SUBJECT + "/versions/9");
        Answer schema = get(registry + "/schemas/ids/999");
        Answer notAnId = get(registry + "/schemas/ids/abc");
        Answer holders = get(registry + "/schemas/ids/999/versions");

        assertThat(List.of(subject, subjectOfVersion, version, schema, notAnId, holders)).allMatch(a -> a.status() == 404);
        assertThat(List.of(subject, subjectOfVersion, version, schema, notAnId, holders))
                .extracting(a -> a.body().get("error_code").asInt()).containsExactly(40401, 40401, 40402, 40403, 40403, 40403);
        assertThat(schema.body().get("message").asText()).isEqualTo("Schema 999 not found");
        assertThat(schema.contentType()).isEqualTo(RegistryEndpoints.CONTENT_TYPE);
    }

    @Test
    void aVersionThatIsNeitherANumberFromOneNorLatestIs42202() throws Exception {
        String registry = serve(embedded);

        for (String version : List.of("0", "-2", "abc", "1.5")) {
            Answer answer = get(registry + "/subjects/" + STATE_SUBJECT + "/versions/" + version);

            assertThat(answer.status()).as(version).isEqualTo(422);
            assertThat(answer.body().get("error_code").asInt()).as(version).isEqualTo(42202);
        }
    }

    @Test
    void onlyReadsAreRouted() {
        serve(embedded);

        List<String> routes = server.routes();

        assertThat(routes).filteredOn(route -> route.contains(RegistryEndpoints.PATH)).hasSize(6).allMatch(route -> route.startsWith("GET "));
    }

    @Test
    void theServicesOwnConfluentClientReadsThroughTheRoutes() throws Exception {
        String registry = serve(embedded);
        int id = embedded.register(STATE_SUBJECT, StateChange.getClassSchema());
        HttpSchemaRegistry client = new HttpSchemaRegistry(registry, HttpSchemaRegistry.Options.defaults().withAutoRegister(false));

        Schema byId = client.schemaById(id);
        int latest = client.register(STATE_SUBJECT, StateChange.getClassSchema());

        assertThat(byId).isEqualTo(StateChange.getClassSchema());
        assertThat(latest).as("the id of the subject's latest version, as a producer that must not register takes it").isEqualTo(id);
    }

    @Test
    void withAnOutsideRegistryEveryRouteAnswers404NamingItWithoutItsCredentials() throws Exception {
        String registry = serve(new HttpSchemaRegistry("https://jolt:s3cret@registry.example.internal:8081",
                HttpSchemaRegistry.Options.defaults()));

        List<Answer> answers = List.of(get(registry + "/subjects"), get(registry + "/schemas/types"), get(registry + "/schemas/ids/1"),
                get(registry + "/schemas/ids/1/versions"), get(registry + "/subjects/" + STATE_SUBJECT + "/versions"),
                get(registry + "/subjects/" + STATE_SUBJECT + "/versions/latest"));

        for (Answer answer : answers) {
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.body().get("error_code").asInt()).isEqualTo(404);
            assertThat(answer.body().get("message").asText()).contains("https://registry.example.internal:8081").doesNotContain("s3cret");
        }
    }
}
