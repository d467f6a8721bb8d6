package io.jolt.stream.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * What both HTTP services are built on: a Javalin server that answers every failure in the one
 * error shape (its own, Jetty's before routing, a store moved away mid-answer, the unexpected),
 * serves its OpenAPI document at {@code GET /openapi.json}, and keeps the list of its routes
 * (the contract tests hold the document to it). Health, the probes and metrics are the same for
 * both.
 */
public final class HttpServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Javalin app;
    private final List<String> routes = new CopyOnWriteArrayList<>();
    /** Where every answer's time is recorded, once {@link #metrics} named the registry. */
    private volatile MeterRegistry timings;

    public HttpServer(OpenApiDocument contract, Consumer<JavalinConfig> configure) {
        this.app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.useVirtualThreads = false;
            config.events.handlerAdded(route -> routes.add(route.getHttpMethod() + " " + route.getPath()));
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            config.requestLogger.http(this::timed);
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

    /**
     * {@code GET /health/live} and {@code GET /health/ready}, for an orchestrator: restart the
     * process when it is not live, send it no traffic while it is not ready. Each answers
     * {@code {"status", "streams_state", "reasons": [...]}}, the reasons empty on 200; a 503 from
     * readiness says to retry after a second, as every other 503 does. {@code notReadyBecause}
     * gets the state the answer shows, so the two agree.
     */
    public void probes(KafkaStreams streams, Function<KafkaStreams.State, List<String>> notReadyBecause) {
        app.get("/health/live", ctx -> {
            KafkaStreams.State state = streams.state();
            List<String> reasons = notLiveBecause(state);
            probe(ctx, reasons.isEmpty() ? "live" : "not_live", state, reasons);
        });
        app.get("/health/ready", ctx -> {
            KafkaStreams.State state = streams.state();
            List<String> reasons = notReadyBecause.apply(state);
            if (!reasons.isEmpty()) {
                ctx.header("Retry-After", "1");
            }
            probe(ctx, reasons.isEmpty() ? "ready" : "not_ready", state, reasons);
        });
    }

    /**
     * Kafka Streams stopped for good: it failed (a stream thread's exception the service did not
     * replace), or it was stopped while the HTTP server still answers (a clean stop closes the
     * server first). Nothing in the process brings it back, so a restart should.
     */
    private static List<String> notLiveBecause(KafkaStreams.State state) {
        return switch (state) {
            case CREATED, REBALANCING, RUNNING -> List.of();
            case PENDING_ERROR, ERROR -> List.of("Kafka Streams is " + state + ": its stream threads failed and will not be restarted");
            case PENDING_SHUTDOWN, NOT_RUNNING -> List.of("Kafka Streams is " + state + ": it was stopped and will not start again");
        };
    }

    private static void probe(Context ctx, String status, KafkaStreams.State state, List<String> reasons) {
        ObjectNode body = JSON.createObjectNode().put("status", status).put("streams_state", state.name());
        ArrayNode listed = body.putArray("reasons");
        reasons.forEach(listed::add);
        ctx.status(reasons.isEmpty() ? 200 : 503).contentType("application/json").result(body.toString());
    }

    /**
     * {@code GET /metrics} in Prometheus' text format, once {@code access} let the request through
     * (it throws otherwise); from now on every answer's time is recorded there as
     * {@code jolt_http_requests_seconds}, a histogram by method, route (the matched template, so
     * that identities do not become labels) and status.
     */
    public void metrics(PrometheusMeterRegistry metrics, Handler access) {
        this.timings = metrics;
        app.get("/metrics", ctx -> {
            access.handle(ctx);
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
        });
    }

    private void timed(Context ctx, Float milliseconds) {
        MeterRegistry registry = timings;
        if (registry == null) {
            return;
        }
        Timer.builder("jolt.http.requests").description("HTTP answers: time from request to response, by method, route and status")
                .tag("method", ctx.method().name()).tag("route", routeOf(ctx)).tag("status", Integer.toString(ctx.statusCode()))
                .publishPercentileHistogram().register(registry)
                .record(Duration.ofNanos((long) (milliseconds * 1_000_000)));
    }

    /** The route's template; "unmatched" for a request no route took (a 404, or one refused before routing). */
    private static String routeOf(Context ctx) {
        String template = ctx.handlerType() == HandlerType.BEFORE ? "" : ctx.endpointHandlerPath();
        return template.isEmpty() ? "unmatched" : template;
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
