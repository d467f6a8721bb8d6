package io.jolt.stream.archive.service;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.jolt.stream.analytics.TimeArgument;
import io.jolt.stream.archive.replay.ArchiveJson;
import io.jolt.stream.archive.replay.ArchiveReplay.Archived;
import io.jolt.stream.archive.replay.ArchivedHistory;
import io.jolt.stream.http.HttpServer;
import io.jolt.stream.http.OpenApiDocument;
import io.jolt.stream.protocol.json.RecordJson;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The archive service's HTTP API: history, as-of state and export of one identity, status,
 * health, the probes and metrics. Read-only: there is no route that takes a record. An identity
 * another instance indexes is redirected there (307), so any instance can be asked.
 */
final class ArchiveHttp implements AutoCloseable {
    /** The HTTP contract, served as it is in the jar (src/main/resources/openapi). */
    private static final OpenApiDocument OPENAPI = new OpenApiDocument("/openapi/archive-api.json");

    private final Javalin app;
    private final KafkaStreams streams;
    private final ArchiveQueries queries;
    private final ArchiveProgress progress;
    private final HostInfo self;
    private final HttpServer server;

    ArchiveHttp(KafkaStreams streams, ArchiveQueries queries, ArchiveProgress progress, ArchiveReadiness readiness, PrometheusMeterRegistry metrics,
            HostInfo self) {
        this.streams = streams;
        this.queries = queries;
        this.progress = progress;
        this.self = self;
        this.server = new HttpServer(OPENAPI, config -> { });
        this.app = server.app();
        server.health(streams);
        server.probes(streams, readiness::notReadyBecause);
        server.metrics(metrics, ctx -> { });
        app.get("/v1/archive/status", ctx -> ctx.contentType("application/json").result(progress.status().toString()));
        app.get("/v1/archive/identities/{id}/history", this::history);
        app.get("/v1/archive/identities/{id}/state", this::state);
        app.get("/v1/archive/export", this::export);
    }

    void start() {
        app.start(self.host(), self.port());
    }

    int port() {
        return server.port();
    }

    /** Every route registered, as "GET /v1/archive/status": what the OpenAPI document must describe. */
    List<String> routes() {
        return server.routes();
    }

    private void history(Context ctx) {
        String identity = ctx.pathParam("id");
        if (redirected(ctx, identity)) {
            return;
        }
        String path = ctx.queryParam("path");
        ArchiveJson.AsOf asOf = asOf(ctx);
        ctx.contentType("application/json").result(ArchiveJson.history(queries.history(identity, path, asOf.offset(), asOf.time()), path));
    }

    private void state(Context ctx) {
        String identity = ctx.pathParam("id");
        if (redirected(ctx, identity)) {
            return;
        }
        ArchiveJson.AsOf asOf = asOf(ctx);
        ArchivedHistory history = queries.history(identity, null, asOf.offset(), asOf.time());
        ctx.contentType("application/json").result(ArchiveJson.state(history, asOf));
    }

    /** §9 JSON Lines, one entry per line; how many repeats were removed is in a header (the lines are only entries). */
    private void export(Context ctx) throws Exception {
        String identity = ctx.queryParam("identity");
        if (identity == null || identity.isEmpty()) {
            throw new ArchiveError(ArchiveError.Code.BAD_PARAMETER, "identity is required (the whole archive: jolt replay --mode export)");
        }
        if (redirected(ctx, identity)) {
            return;
        }
        ArchivedHistory history = queries.history(identity, null, null, null);
        ctx.contentType("application/jsonl; charset=utf-8").header("Jolt-Duplicates-Removed", String.valueOf(history.duplicatesRemoved()));
        try (OutputStream out = ctx.outputStream()) {
            for (Archived a : history.operations()) {
                out.write((RecordJson.write(a.entry()) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** Sends the client to the instance whose index holds the identity, when that is not this one. */
    private boolean redirected(Context ctx, String identity) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new ArchiveError(ArchiveError.Code.NOT_READY, "the archive index is " + streams.state());
        }
        KeyQueryMetadata owner = streams.queryMetadataForKey(ArchiveIndexTopology.IDENTITY_INDEX, identity, Serdes.String().serializer());
        if (owner == KeyQueryMetadata.NOT_AVAILABLE) {
            throw new ArchiveError(ArchiveError.Code.NOT_READY, "no instance indexes " + identity + " yet");
        }
        if (owner.activeHost().equals(self)) {
            return false;
        }
        String query = ctx.queryString() == null ? "" : "?" + ctx.queryString();
        ctx.status(307).header("Location", ctx.scheme() + "://" + owner.activeHost().host() + ":" + owner.activeHost().port() + ctx.path() + query);
        return true;
    }


    private static ArchiveJson.AsOf asOf(Context ctx) {
        return new ArchiveJson.AsOf(offset(ctx.queryParam("as_of_offset")), time(ctx.queryParam("as_of_time")));
    }

    private static Long offset(String value) {
        if (value == null) {
            return null;
        }
        try {
            long offset = Long.parseLong(value);
            if (offset >= 0) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ArchiveError(ArchiveError.Code.BAD_PARAMETER, "as_of_offset is an archive offset (0 or more): " + value);
    }

    private static Long time(String value) {
        try {
            return value == null ? null : TimeArgument.parse(value);
        } catch (IllegalArgumentException e) {
            throw new ArchiveError(ArchiveError.Code.BAD_PARAMETER, "as_of_time: " + e.getMessage());
        }
    }


    @Override
    public void close() {
        server.close();
    }
}
