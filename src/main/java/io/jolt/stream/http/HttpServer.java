package io.jolt.stream.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Handler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * What both HTTP services are built on: a Javalin server that answers every failure in the one
 * error shape (its own, Jetty's before routing, a store moved away mid-answer, the unexpected),
 * serves its OpenAPI document at {@code GET /openapi.json}, and keeps the list of its routes
 * (the contract tests hold the document to it). Health and metrics are the same for both.
 */
public final class HttpServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Javalin app;
    private final List<String> routes = new CopyOnWriteArrayList<>();

    public HttpServer(OpenApiDocument contract, Consumer<JavalinConfig> configure) {
        this.app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.useVirtualThreads = false;
            config.events.handlerAdded(route -> routes.add(route.getHttpMethod() + " " + route.getPath()));
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            configure.accept(config);
        });
        app.exception(HttpError.class, (e, ctx) -> HttpError.answer(ctx, e.status(), e.code(), e.getMessage(), e.details()));
        // The RUNNING check passed, then a rebalance took the store away mid-answer: as not_ready.
        app.exception(InvalidStateStoreException.class, (e, ctx) -> HttpError.answer(ctx, 503, "not_ready", e.getMessage(), null));
        app.exception(Exception.class, (e, ctx) -> HttpError.answer(ctx, 500, "internal_error", String.valueOf(e), null));
        app.get("/openapi.json", ctx -> ctx.contentType("application/json").result(contract.get()));
    }

    public Javalin app() {
        return app;
    }

    /** {@code GET /health}: 200 while Kafka Streams is RUNNING, else 503, with the state either way. */
    public void health(KafkaStreams streams) {
        app.get("/health", ctx -> {
            KafkaStreams.State state = streams.state();
            ObjectNode body = JSON.createObjectNode().put("streams_state", state.name()).put("ready", state == KafkaStreams.State.RUNNING);
            ctx.status(state == KafkaStreams.State.RUNNING ? 200 : 503).contentType("application/json").result(body.toString());
        });
    }

    /** {@code GET /metrics} in Prometheus' text format, once {@code access} let the request through (it throws otherwise). */
    public void metrics(PrometheusMeterRegistry metrics, Handler access) {
        app.get("/metrics", ctx -> {
            access.handle(ctx);
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
        });
    }

    /** Every route registered, as "GET /v1/identities/{id}". */
    public List<String> routes() {
        return List.copyOf(routes);
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
