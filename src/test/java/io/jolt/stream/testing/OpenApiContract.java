package io.jolt.stream.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One of the project's OpenAPI 3.1 documents (src/main/resources/openapi), held as the contract
 * an answer must keep: its status is one the operation declares, its content type one that
 * status declares, and a JSON body (each line of a JSON Lines body) valid against that schema
 * (JSON Schema 2020-12, networknt's OpenAPI 3.1 dialect). A drifted field fails the test.
 */
public final class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    public static final OpenApiContract SERVICE = new OpenApiContract("openapi/jolt-api.json", "ApiError");
    public static final OpenApiContract ARCHIVE = new OpenApiContract("openapi/archive-api.json", "ArchiveError");

    private final String resource;
    /** The schema of the error a request for no route at all gets (404). */
    private final String errorSchema;
    private final JsonNode document;
    private final SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31());
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();

    private OpenApiContract(String resource, String errorSchema) {
        this.resource = resource;
        this.errorSchema = pointer("components", "schemas", errorSchema);
        this.document = read(resource);
    }

    /** The document's text, as the jar carries it. */
    public JsonNode document() {
        return document;
    }

    public String resource() {
        return resource;
    }

    /** Every operation of the document, as "GET /v1/identities/{id}". */
    public Set<String> operations() {
        Set<String> operations = new TreeSet<>();
        document.path("paths").properties().forEach(path -> path.getValue().fieldNames().forEachRemaining(method -> {
            if (METHODS.contains(method)) {
                operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
            }
        }));
        return operations;
    }

    /** Checks one answer the tests received; an {@link AssertionError} names each way it drifted. */
    public void check(HttpResponse<?> answer) {
        byte[] body = answer.body() instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
                : answer.body() instanceof byte[] b ? b : null;
        check(answer.request().method(), answer.request().uri().getRawPath(), answer.statusCode(),
                answer.headers().firstValue("Content-Type"), body);
    }

    /** As {@link #check(HttpResponse)}; a null body is not read (the test streamed or discarded it). */
    public void check(String method, String rawPath, int status, Optional<String> contentType, byte[] body) {
        String what = method + " " + rawPath + " answered " + status;
        Optional<String> matched = template(rawPath);
        if (matched.isEmpty()) {
            noRoute(what, status, contentType, body);
            return;
        }
        String template = matched.get();
        JsonNode operation = document.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) {
            throw new AssertionError(what + ": " + resource + " has no " + method + " " + template);
        }
        String statusKey = statusKey(operation.path("responses"), status)
                .orElseThrow(() -> new AssertionError(what + ": " + resource + " declares no such status for " + method + " " + template));
        String response = responsePointer(operation.path("responses").path(statusKey),
                pointer("paths", template, method.toLowerCase(Locale.ROOT), "responses", statusKey));
        JsonNode content = document.at(unescaped(response)).path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            return;
        }
        String media = contentType.map(OpenApiContract::mediaType)
                .orElseThrow(() -> new AssertionError(what + " without a Content-Type, where " + resource + " declares " + names(content)));
        if (!content.has(media)) {
            throw new AssertionError(what + " as " + media + ", where " + resource + " declares " + names(content));
        }
        if (body != null && isJson(media) && content.path(media).has("schema")) {
            validate(what, response + pointer("content", media, "schema"), media, body);
        }
    }

    /** A path the document does not have: the server must say so, as 404 in the error shape. */
    private void noRoute(String what, int status, Optional<String> contentType, byte[] body) {
        if (status != 404) {
            throw new AssertionError(what + ": no path of " + resource + " matches, so only 404 may answer");
        }
        if (body != null && contentType.map(OpenApiContract::mediaType).filter(OpenApiContract::isJson).isPresent()) {
            validate(what, errorSchema, "application/json", body);
        }
    }

    private void validate(String what, String pointer, String media, byte[] body) {
        Schema schema = compiled.computeIfAbsent(pointer, p -> schemas.getSchema(SchemaLocation.of("classpath:" + resource + "#" + p)));
        String text = new String(body, StandardCharsets.UTF_8);
        List<String> values = media.endsWith("ndjson") || media.endsWith("jsonl")
                ? text.lines().filter(l -> !l.isBlank()).toList() : List.of(text);
        for (String value : values) {
            JsonNode node;
            try {
                node = JSON.readTree(value);
            } catch (IOException e) {
                throw new AssertionError(what + ": a body that is not JSON: " + abbreviate(value), e);
            }
            List<Error> errors = schema.validate(node);
            if (!errors.isEmpty()) {
                List<String> messages = new ArrayList<>();
                errors.forEach(e -> messages.add(e.getInstanceLocation() + " " + e.getMessage()));
                throw new AssertionError(what + ": the body breaks " + resource + ": " + messages + " in " + abbreviate(value));
            }
        }
    }

    /** The document's path template that matches a request path, a literal path before a templated one. */
    Optional<String> template(String rawPath) {
        String[] segments = rawPath.split("/", -1);
        String best = null;
        for (Iterator<String> it = document.path("paths").fieldNames(); it.hasNext(); ) {
            String candidate = it.next();
            String[] parts = candidate.split("/", -1);
            if (matches(parts, segments) && (best == null || literals(parts) > literals(best.split("/", -1)))) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean matches(String[] template, String[] segments) {
        if (template.length != segments.length) {
            return false;
        }
        for (int i = 0; i < template.length; i++) {
            boolean parameter = template[i].startsWith("{") && template[i].endsWith("}");
            if (parameter ? segments[i].isEmpty() : !template[i].equals(segments[i])) {
                return false;
            }
        }
        return true;
    }

    private static long literals(String[] parts) {
        return java.util.Arrays.stream(parts).filter(p -> !p.startsWith("{")).count();
    }

    private static Optional<String> statusKey(JsonNode responses, int status) {
        String exact = String.valueOf(status);
        String range = status / 100 + "XX";
        for (String key : List.of(exact, range, "default")) {
            if (responses.has(key)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /** Where a response lives: its place under paths, or the components/responses it refers to. */
    private static String responsePointer(JsonNode response, String inPlace) {
        String ref = response.path("$ref").asText("");
        return ref.startsWith("#/") ? pointer(ref.substring(2).split("/")) : inPlace;
    }

    /** A pointer as {@link JsonNode#at} takes it: not percent-encoded. */
    private static String unescaped(String pointer) {
        return java.net.URLDecoder.decode(pointer.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String pointer(String... tokens) {
        StringBuilder pointer = new StringBuilder();
        for (String token : tokens) {
            String escaped = token.replace("~", "~0").replace("/", "~1");
            // A JSON Pointer in a URI fragment is percent-encoded (RFC 6901 section 6): '{' and '}' of path templates.
            pointer.append('/').append(URLEncoder.encode(escaped, StandardCharsets.UTF_8).replace("+", "%20").replace("%7E", "~"));
        }
        return pointer.toString();
    }

    private static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(String media) {
        return media.equals("application/json") || media.endsWith("+json") || media.endsWith("ndjson") || media.endsWith("jsonl");
    }

    private static List<String> names(JsonNode content) {
        List<String> names = new ArrayList<>();
        content.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static JsonNode read(String resource) {
        try (InputStream in = OpenApiContract.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the classpath");
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
