package io.jolt.stream.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.jolt.stream.wire.serde.HttpSchemaRegistry;
import io.jolt.stream.wire.serde.InMemorySchemaRegistry;
import io.jolt.stream.wire.serde.SchemaRegistry;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.apache.avro.Schema;

/**
 * {@code /registry/*}: the embedded schema registry, read-only, under the Confluent Schema
 * Registry's REST paths. Its ids exist in this JVM alone, so without these routes nothing outside
 * could decode a record of the service's topics; with them any Confluent client given
 * {@code http://host:port/registry} as its registry URL can. Answers and errors are a Confluent
 * registry's, not the API's, because Confluent clients parse them.
 *
 * <p>A service that uses an outside registry ({@code schema.registry.url}) answers every route
 * with 404 naming that registry: clients should read it, where the ids were made. Only reads are
 * routed: the schemas are the build's, and an id a producer registered here would be gone at the
 * next start while its records stay on the topics.
 */
final class RegistryEndpoints {
    /** Where the routes are mounted, below the API's root. */
    static final String PATH = "/registry";
    /** What a Confluent registry answers with; every Confluent client accepts it. */
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code GET /schemas/ids/{id}}: Avro's schema text; {@code schemaType} is left out, as Confluent does for Avro. */
    record SchemaString(String schema) {}

    /** An entry of {@code GET /schemas/ids/{id}/versions}: a subject holding the schema, and at which version. */
    record SubjectVersion(String subject, int version) {}

    /** {@code GET /subjects/{subject}/versions/{version}}. */
    record RegisteredSchema(String subject, int version, int id, String schema) {}

    private final SchemaRegistry registry;

    RegistryEndpoints(SchemaRegistry registry) {
        this.registry = registry;
    }

    /** Whether the routes answer with schemas: only for the embedded registry. */
    boolean serves() {
        return registry instanceof InMemorySchemaRegistry;
    }

    void routes(Javalin app) {
        app.get(PATH + "/schemas/types", ctx -> {
            served();
            answer(ctx, List.of("AVRO"));
        });
        app.get(PATH + "/schemas/ids/{id}", ctx -> answer(ctx, new SchemaString(schema(served(), id(ctx)).toString())));
        app.get(PATH + "/schemas/ids/{id}/versions", this::subjectsOfSchema);
        app.get(PATH + "/subjects", ctx -> answer(ctx, served().subjectVersions().keySet()));
        app.get(PATH + "/subjects/{subject}/versions", ctx ->
                answer(ctx, IntStream.rangeClosed(1, ids(served(), ctx.pathParam("subject")).size()).boxed().toList()));
        app.get(PATH + "/subjects/{subject}/versions/{version}", this::version);
        app.exception(RegistryError.class, (e, ctx) -> answer(ctx.status(e.status()), e.body()));
    }

    /** The embedded registry; with an outside one, the error that names it. */
    private InMemorySchemaRegistry served() {
        if (registry instanceof InMemorySchemaRegistry embedded) {
            return embedded;
        }
        String where = registry instanceof HttpSchemaRegistry outside ? "the schema registry at " + outside.url() : "an outside schema registry";
        throw new RegistryError(RegistryError.Code.NOT_SERVED, "this service keeps its schemas in " + where + ": give the client that one");
    }

    private void subjectsOfSchema(Context ctx) {
        InMemorySchemaRegistry embedded = served();
        int id = id(ctx);
        schema(embedded, id);
        List<SubjectVersion> holders = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> subject : embedded.subjectVersions().entrySet()) {
            int index = subject.getValue().indexOf(id);
            if (index >= 0) {
                holders.add(new SubjectVersion(subject.getKey(), index + 1));
            }
        }
        answer(ctx, holders);
    }

    private void version(Context ctx) {
        InMemorySchemaRegistry embedded = served();
        OptionalInt asked = versionNumber(ctx.pathParam("version"));
        String subject = ctx.pathParam("subject");
        List<Integer> ids = ids(embedded, subject);
        int version = asked.orElse(ids.size());
        if (version > ids.size()) {
            throw new RegistryError(RegistryError.Code.VERSION_NOT_FOUND, "Version " + version + " not found.");
        }
        int id = ids.get(version - 1);
        answer(ctx, new RegisteredSchema(subject, version, id, schema(embedded, id).toString()));
    }

    /** A version number from 1, or empty for the latest ({@code latest}, or -1 as Confluent also takes it). */
    private static OptionalInt versionNumber(String text) {
        if (text.equals("latest") || text.equals("-1")) {
            return OptionalInt.empty();
        }
        try {
            int number = Integer.parseInt(text);
            if (number >= 1) {
                return OptionalInt.of(number);
            }
        } catch (NumberFormatException e) {
            // as any other text that is no version
        }
        throw new RegistryError(RegistryError.Code.INVALID_VERSION, "The specified version '" + text
                + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    /** The ids of a subject's versions, version 1 first. */
    private static List<Integer> ids(InMemorySchemaRegistry embedded, String subject) {
        List<Integer> ids = embedded.subjectVersions().get(subject);
        if (ids == null) {
            throw new RegistryError(RegistryError.Code.SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
        }
        return ids;
    }

    /** The id a path names; one that is no number is a schema not found, as no schema has it. */
    private static int id(Context ctx) {
        String text = ctx.pathParam("id");
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new RegistryError(RegistryError.Code.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }

    private static Schema schema(InMemorySchemaRegistry embedded, int id) {
        try {
            return embedded.schemaById(id);
        } catch (SchemaRegistry.UnknownSchemaException e) {
            throw new RegistryError(RegistryError.Code.SCHEMA_NOT_FOUND, "Schema " + id + " not found");
        }
    }

    /** As UTF-8 bytes: the media type has no charset parameter, and a String result would be sent as ISO-8859-1 (the schemas' docs have '§'). */
    private static void answer(Context ctx, Object body) {
        try {
            ctx.contentType(CONTENT_TYPE).result(JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
