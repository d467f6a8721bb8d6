package io.jolt.stream.api;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.jolt.stream.http.HttpError;
import io.jolt.stream.http.HttpServer;
import io.jolt.stream.http.OpenApiDocument;
import io.jolt.stream.http.StreamsMetrics;
import io.jolt.stream.processor.AnalyticsQueries;
import io.jolt.stream.processor.IdentityQueries;
import io.jolt.stream.processor.QueryFreshness;
import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.wire.RecordIngest;
import io.jolt.stream.wire.serde.SchemaRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The HTTP service over interactive queries: the routes, the one error shape, health and
 * metrics, quotas on ingest and sync ({@link EdgeQuotas}), and the embedded schema registry,
 * read-only, for Confluent clients ({@link RegistryEndpoints}). A request for an identity
 * another instance owns is forwarded to that instance ({@link OwnerRouting}); answers are the
 * same whichever instance is asked.
 */
public final class HttpApi implements AutoCloseable {
    /** The HTTP contract, served as it is in the jar (src/main/resources/openapi). */
    private static final OpenApiDocument OPENAPI = new OpenApiDocument("/openapi/jolt-api.json");

    private final Javalin app;
    private final PrometheusMeterRegistry metrics;
    private final OwnerRouting routing;
    private final HttpAccess access;
    private final String scheme;
    private final HttpServer server;
    private final RegistryEndpoints registry;
    private final StalenessBound staleness;

    private HttpApi(KafkaStreams streams, ServiceReadiness readiness, SignatureCheck signatures, RecordIngest ingest, SchemaRegistry schemas,
            HostInfo self, HttpAccess access, Optional<HttpTls> tls, SyncResponder.Limits pages, EdgeQuotas.Settings quotas, QueryFreshness freshness,
            Duration forwardTimeout) {
        this.access = access;
        this.registry = new RegistryEndpoints(schemas);
        this.scheme = tls.isPresent() ? "https" : "http";
        IdentityQueries queries = new IdentityQueries(streams, signatures);
        this.routing = new OwnerRouting(streams, queries, self, tls, forwardTimeout);
        this.staleness = new StalenessBound(freshness);
        this.metrics = StreamsMetrics.of(streams);
        freshness.bindTo(metrics);
        JoltMeters.bind(metrics, streams);
        JoltMeters.bindVerifier(metrics, signatures);
        this.server = new HttpServer(OPENAPI, config -> {
            config.http.maxRequestSize = RecordsEndpoint.MAX_BODY_BYTES;
            tls.ifPresent(t -> config.jetty.addConnector((jetty, http) -> t.connector(jetty, http, self.host(), self.port())));
        });
        this.app = server.app();
        server.health(streams);
        server.probes(streams, readiness::notReadyBecause);
        readiness.bindTo(metrics);
        server.metrics(metrics, ctx -> access.require(HttpRole.METRICS, ctx));
        errors();
        EdgeQuotas edge = new EdgeQuotas(quotas, access, metrics, routing::forwardedByPeer);
        routes(new IdentityEndpoints(queries), new RecordsEndpoint(ingest, edge, metrics), edge,
                new SyncEndpoint(routing, staleness, queries, ingest, metrics, access, pages), new AnalyticsEndpoints(streams, AnalyticsQueries.of(streams), routing));
    }

    /**
     * Starts the API on {@code self} (this instance's application.server), over HTTPS when
     * {@code jolt.http.tls.*} configure it, with each route behind its role's credentials
     * ({@link HttpAccess}). Answers that verify (state, sync) check signatures with
     * {@code signatures}, the processor's own. {@code schemas}, the registry the service writes
     * through, is served read-only under {@code /registry} when it is the embedded one.
     * {@code readiness} is the one whose restore listener {@code streams} started with. Ingest and
     * sync are held to {@code quotas} per client ({@link EdgeQuotas}). Answers about an identity are
     * given only within {@code freshness}' bound, and a request forwarded to the identity's owner
     * waits at most {@code forwardTimeout}.
     */
    public static HttpApi start(HostInfo self, KafkaStreams streams, ServiceReadiness readiness, SignatureCheck signatures, RecordIngest ingest,
            SchemaRegistry schemas, HttpAccess access, Optional<HttpTls> tls, SyncResponder.Limits pages, EdgeQuotas.Settings quotas,
            QueryFreshness freshness, Duration forwardTimeout) {
        HttpApi api = new HttpApi(streams, readiness, signatures, ingest, schemas, self, access, tls, pages, quotas, freshness, forwardTimeout);
        if (tls.isPresent()) {
            api.app.start();
        } else {
            api.app.start(self.host(), self.port());
        }
        return api;
    }

    public int port() {
        return server.port();
    }

    /** http, or https when TLS is configured. */
    public String scheme() {
        return scheme;
    }

    public PrometheusMeterRegistry metrics() {
        return metrics;
    }

    /** The path below the API's root where Confluent clients read the schemas, when it serves them (the embedded registry). */
    public Optional<String> registryPath() {
        return registry.serves() ? Optional.of(RegistryEndpoints.PATH) : Optional.empty();
    }

    /** Every route registered, as "GET /v1/identities/{id}": what the OpenAPI document must describe. */
    public List<String> routes() {
        return server.routes();
    }

    private void routes(IdentityEndpoints identities, RecordsEndpoint records, EdgeQuotas edge, SyncEndpoint sync, AnalyticsEndpoints analytics) {
        app.get("/v1/identities/{id}/resolve", as(HttpRole.READ, ctx -> routed(ctx, identities::resolve)));
        app.get("/v1/identities/{id}/enumerate", as(HttpRole.READ, ctx -> routed(ctx, identities::enumerate)));
        app.get("/v1/identities/{id}/conflicts", as(HttpRole.READ, ctx -> routed(ctx, identities::conflicts)));
        app.get("/v1/identities/{id}", as(HttpRole.READ, ctx -> routed(ctx, identities::identity)));
        app.post("/v1/records", as(HttpRole.INGEST, records::records));
        app.post("/jolt/device-writer/sync", as(HttpRole.SYNC, ctx -> edge.sync(ctx, sync::sync)));
        app.get("/v1/analytics/conflicts", as(HttpRole.ANALYTICS, analytics::conflicts));
        app.get("/v1/analytics/top", as(HttpRole.ANALYTICS, analytics::top));
        app.get("/v1/analytics/pipeline", as(HttpRole.ANALYTICS, analytics::pipeline));
        Dashboard.routes(app, handler -> as(HttpRole.ANALYTICS, handler));
        registry.routes(app);
    }

    /**
     * The route's handler behind its role: 401 unless the role is open or the request carries
     * credentials let into it (checked before anything of the request is read or counted).
     */
    private Handler as(HttpRole role, Handler handler) {
        return ctx -> {
            access.require(role, ctx);
            handler.handle(ctx);
        };
    }

    /** Javalin's own refusals (an oversized body above all), in the one error shape. */
    private void errors() {
        app.exception(HttpResponseException.class, (e, ctx) -> {
            boolean tooLarge = e.getStatus() == 413;
            String code = tooLarge ? ApiError.Code.BODY_TOO_LARGE.wireName() : "http_" + e.getStatus();
            String message = tooLarge ? "at most " + RecordsEndpoint.MAX_BODY_BYTES + " bytes per request" : e.getMessage();
            HttpError.answer(ctx, e.getStatus(), code, message, null);
        });
    }

    private interface IdentityHandler {
        void handle(Context ctx, String identity) throws Exception;
    }

    /** Answers locally when this instance owns the identity and is current enough, else forwards to the owner. */
    private void routed(Context ctx, IdentityHandler handler) throws Exception {
        routing.requireRunning();
        String identity = ctx.pathParam("id");
        KeyQueryMetadata owner = routing.owner(identity);
        Optional<HostInfo> remote = routing.remoteOwner(ctx, owner);
        if (remote.isPresent()) {
            routing.forward(ctx, remote.get(), HttpRequest.BodyPublishers.noBody(), "GET");
        } else {
            staleness.require(ctx, owner.partition());
            handler.handle(ctx, identity);
        }
    }

    @Override
    public void close() {
        server.close();
        metrics.close();
    }
}
