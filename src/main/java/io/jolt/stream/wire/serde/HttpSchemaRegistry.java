package io.jolt.stream.wire.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.apache.avro.Schema;

/**
 * A client of the Confluent Schema Registry REST API (any compatible registry: Confluent,
 * Apicurio's {@code /apis/ccompat/v7}, ...). It calls exactly two endpoints, or three without
 * auto-registration: {@code POST /subjects/{subject}/versions}, {@code GET /schemas/ids/{id}} and
 * {@code GET /subjects/{subject}/versions/latest}. Both directions are cached; transient failures
 * (I/O, 5xx) are retried with exponential backoff; errors name the registry's error code.
 */
public final class HttpSchemaRegistry implements SchemaRegistry {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How to reach the registry. */
    public record Options(Duration timeout, int attempts, Duration backoff, String basicAuthUser, String basicAuthPassword,
            SSLContext sslContext, boolean autoRegister) {
        public static Options defaults() {
            return new Options(Duration.ofSeconds(10), 3, Duration.ofMillis(200), null, null, null, true);
        }

        public Options withBasicAuth(String user, String password) {
            return new Options(timeout, attempts, backoff, user, password, sslContext, autoRegister);
        }

        public Options withAutoRegister(boolean register) {
            return new Options(timeout, attempts, backoff, basicAuthUser, basicAuthPassword, sslContext, register);
        }

        public Options withSslContext(SSLContext context) {
            return new Options(timeout, attempts, backoff, basicAuthUser, basicAuthPassword, context, autoRegister);
        }
    }

    /** The registry answered with an error: its HTTP status and Confluent error code. */
    public static final class RegistryException extends RuntimeException {
        private final int status;
        private final int errorCode;

        RegistryException(int status, int errorCode, String message) {
            super("schema registry error " + errorCode + " (HTTP " + status + "): " + message);
            this.status = status;
            this.errorCode = errorCode;
        }

        public int status() {
            return status;
        }

        public int errorCode() {
            return errorCode;
        }
    }

    private final URI base;
    private final Options options;
    private final HttpClient client;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    public HttpSchemaRegistry(String url, Options options) {
        this.base = URI.create(url.endsWith("/") ? url : url + "/");
        this.options = options;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(options.timeout());
        if (options.sslContext() != null) {
            builder.sslContext(options.sslContext());
        }
        this.client = builder.build();
    }

    /**
     * Where the registry is, to tell others: its URL without user information, since a URL may
     * carry credentials ({@code https://user:password@host}) that are not for them to see.
     */
    public String url() {
        try {
            return new URI(base.getScheme(), null, base.getHost(), base.getPort(), base.getPath(), null, null).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the registry's URL " + base.getHost() + " cannot be rebuilt", e);
        }
    }

    @Override
    public int register(String subject, Schema schema) {
        return ids.computeIfAbsent(subject + "\u0000" + schema.toString(), k -> {
            JsonNode answer;
            if (options.autoRegister()) {
                String body = JSON.createObjectNode().put("schema", schema.toString()).toString();
                answer = call(HttpRequest.newBuilder(resolve("subjects/" + encode(subject) + "/versions"))
                        .header("Content-Type", CONTENT_TYPE).POST(HttpRequest.BodyPublishers.ofString(body)));
            } else {
                // "Use latest version": producers that must not register take the subject's latest schema.
                answer = call(HttpRequest.newBuilder(resolve("subjects/" + encode(subject) + "/versions/latest")).GET());
            }
            int id = answer.get("id").asInt();
            // Registering answers with the id of exactly this schema; the latest version names its own.
            schemas.putIfAbsent(id, answer.has("schema") ? new Schema.Parser().parse(answer.get("schema").asText()) : schema);
            return id;
        });
    }

    @Override
    public Schema schemaById(int id) {
        Schema cached = schemas.get(id);
        if (cached != null) {
            return cached;
        }
        try {
            JsonNode answer = call(HttpRequest.newBuilder(resolve("schemas/ids/" + id)).GET());
            Schema schema = new Schema.Parser().parse(answer.get("schema").asText());
            schemas.putIfAbsent(id, schema);
            return schema;
        } catch (RegistryException e) {
            if (e.errorCode() == 40403 || e.status() == 404) {
                throw new UnknownSchemaException(id);
            }
            throw e;
        }
    }

    private URI resolve(String path) {
        return base.resolve(path);
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8);
    }

    private JsonNode call(HttpRequest.Builder request) {
        request.timeout(options.timeout()).header("Accept", CONTENT_TYPE + ", application/json");
        if (options.basicAuthUser() != null) {
            String credentials = options.basicAuthUser() + ":" + (options.basicAuthPassword() == null ? "" : options.basicAuthPassword());
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        HttpRequest built = request.build();
        RuntimeException last = null;
        for (int attempt = 1; attempt <= options.attempts(); attempt++) {
            try {
                HttpResponse<String> response = client.send(built, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() / 100 == 2) {
                    return JSON.readTree(response.body());
                }
                RegistryException error = error(response);
                if (response.statusCode() < 500) {
                    throw error;
                }
                last = error;
            } catch (IOException e) {
                last = new IllegalStateException("schema registry at " + base + " unreachable: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while calling the schema registry", e);
            }
            if (attempt < options.attempts()) {
                sleep(options.backoff().multipliedBy(1L << (attempt - 1)));
            }
        }
        throw last;
    }

    private static RegistryException error(HttpResponse<String> response) {
        try {
            JsonNode body = JSON.readTree(response.body());
            return new RegistryException(response.statusCode(), body.path("error_code").asInt(response.statusCode()),
                    body.path("message").asText(response.body()));
        } catch (IOException | RuntimeException e) {
            return new RegistryException(response.statusCode(), response.statusCode(), response.body());
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
