package io.jolt.stream.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.jolt.stream.kafka.IdentityQueries;
import io.jolt.stream.kafka.RecordIngest;
import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.Head;
import io.jolt.stream.protocol.JoltPath;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.json.MergedStateJson;
import io.jolt.stream.protocol.sync.SyncRequest;
import io.jolt.stream.protocol.sync.HistoryForgottenException;
import io.jolt.stream.protocol.sync.SyncResponder;
import io.jolt.stream.protocol.sync.SyncResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The HTTP service over interactive queries. A request for an identity another instance owns is
 * forwarded to that instance ({@code application.server}); answers are the same whichever
 * instance is asked.
 */
public final class HttpApi implements AutoCloseable {
    static final String FORWARDED = "X-Jolt-Forwarded";
    static final long MAX_BODY_BYTES = 8L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Javalin app;
    private final KafkaStreams streams;
    private final IdentityQueries queries;
    private final RecordIngest ingest;
    private final HostInfo self;
    private final PrometheusMeterRegistry metrics;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final SyncResponder.Limits syncLimits = SyncResponder.Limits.DEFAULT;

    private HttpApi(KafkaStreams streams, RecordIngest ingest, HostInfo self) {
        this.streams = streams;
        this.queries = new IdentityQueries(streams);
        this.ingest = ingest;
        this.self = self;
        this.metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new KafkaStreamsMetrics(streams).bindTo(metrics);
        JoltMeters.bind(metrics, streams);
        this.app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_BODY_BYTES;
            config.useVirtualThreads = false;
        });
        routes();
    }

    /** Starts the API on {@code port} (0: any free port). {@code self} is this instance's application.server. */
    public static HttpApi start(String host, int port, KafkaStreams streams, RecordIngest ingest, HostInfo self) {
        HttpApi api = new HttpApi(streams, ingest, self);
        api.app.start(host, port);
        return api;
    }

    public int port() {
        return app.port();
    }

    private void routes() {
        app.exception(ApiError.class, (e, ctx) -> error(ctx, e));
        app.exception(io.javalin.http.HttpResponseException.class, (e, ctx) -> {
            // Javalin's own refusals (an oversized body above all) in the API's error shape.
            String code = e.getStatus() == 413 ? ApiError.Code.BODY_TOO_LARGE.wireName() : "http_" + e.getStatus();
            String message = e.getStatus() == 413 ? "at most " + MAX_BODY_BYTES + " bytes per request" : e.getMessage();
            ctx.status(e.getStatus()).contentType("application/json").result(errorBody(code, message, null));
        });
        app.exception(Exception.class, (e, ctx) -> {
            ctx.status(500).contentType("application/json").result(errorBody("internal_error", String.valueOf(e), null));
        });
        app.get("/health", this::health);
        app.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape()));
        app.get("/v1/identities/{id}/resolve", ctx -> routed(ctx, this::resolve));
        app.get("/v1/identities/{id}/enumerate", ctx -> routed(ctx, this::enumerate));
        app.get("/v1/identities/{id}/conflicts", ctx -> routed(ctx, this::conflicts));
        app.get("/v1/identities/{id}", ctx -> routed(ctx, this::identity));
        app.post("/v1/records", this::records);
        app.post("/jolt/device-writer/sync", this::sync);
    }

    private void health(Context ctx) {
        KafkaStreams.State state = streams.state();
        ObjectNode body = JSON.createObjectNode().put("streams_state", state.name()).put("ready", state == KafkaStreams.State.RUNNING);
        ctx.status(state == KafkaStreams.State.RUNNING ? 200 : 503).contentType("application/json").result(body.toString());
    }

    private interface Handler {
        void handle(Context ctx, String identity) throws Exception;
    }

    /** Answers locally when this instance owns the identity, else forwards to the owner. */
    private void routed(Context ctx, Handler handler) throws Exception {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new ApiError(ApiError.Code.NOT_READY, "the service is " + streams.state() + ", not RUNNING");
        }
        String identity = ctx.pathParam("id");
        Optional<HostInfo> owner = remoteOwner(ctx, identity);
        if (owner.isPresent()) {
            forward(ctx, owner.get(), HttpRequest.BodyPublishers.noBody(), "GET");
        } else {
            handler.handle(ctx, identity);
        }
    }

    /** The other instance that owns the identity, or empty when this one answers (or was forwarded to). */
    private Optional<HostInfo> remoteOwner(Context ctx, String identity) {
        if (self == null || ctx.header(FORWARDED) != null) {
            return Optional.empty();
        }
        KeyQueryMetadata owner = queries.owner(identity);
        HostInfo active = owner == null ? null : owner.activeHost();
        boolean remote = active != null && !active.equals(HostInfo.unavailable()) && !active.equals(self);
        return remote ? Optional.of(active) : Optional.empty();
    }

    /** Passes the request on to the owner, once (the forwarded header stops any further hop). */
    private void forward(Context ctx, HostInfo owner, HttpRequest.BodyPublisher body, String method) {
        String query = ctx.queryString() == null ? "" : "?" + ctx.queryString();
        URI uri = URI.create("http://" + owner.host() + ":" + owner.port() + ctx.path() + query);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header(FORWARDED, self.host() + ":" + self.port()).method(method, body);
        if (ctx.contentType() != null) {
            request.header("Content-Type", ctx.contentType());
        }
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            ctx.status(response.statusCode()).contentType(response.headers().firstValue("Content-Type").orElse("application/json"))
                    .result(response.body());
        } catch (IOException e) {
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "the instance owning this identity (" + owner + ") did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiError(ApiError.Code.OWNER_UNREACHABLE, "interrupted while asking " + owner);
        }
    }

    private void resolve(Context ctx, String identity) {
        String path = ctx.queryParam("path");
        if (path == null) {
            throw new ApiError(ApiError.Code.BAD_PARAMETER, "query parameter path is required");
        }
        Resolution resolution = queries.resolve(identity, path);
        if (resolution instanceof Resolution.NonCanonicalPath) {
            throw new ApiError(ApiError.Code.PATH_NOT_CANONICAL, "not a canonical path: " + path + " (addresses are never rewritten)");
        }
        if (resolution instanceof Resolution.NotFound) {
            requireKnown(identity);
            throw new ApiError(ApiError.Code.PATH_NOT_FOUND, "no singleton binding for " + path);
        }
        if (resolution instanceof Resolution.Tombstoned t) {
            ObjectNode details = JSON.createObjectNode();
            details.set("head", head(t.head()));
            details.put("conflict_count", t.conflictCount());
            throw new ApiError(ApiError.Code.PATH_TOMBSTONED, path + " is tombstoned", details);
        }
        Resolution.Present p = (Resolution.Present) resolution;
        ObjectNode body = JSON.createObjectNode().put("identity", identity).put("path", path).put("state", "present")
                .put("content_id", p.contentId());
        body.set("head", head(p.head()));
        body.put("conflict_count", p.conflictCount());
        json(ctx, body);
    }

    private void enumerate(Context ctx, String identity) {
        String prefix = Optional.ofNullable(ctx.queryParam("prefix")).orElse("/");
        if (!JoltPath.isPrefix(prefix)) {
            throw new ApiError(ApiError.Code.PREFIX_NOT_CANONICAL, "not a canonical prefix: " + prefix);
        }
        int limit = intParam(ctx, "limit", 100, 1, 1000);
        String token = ctx.queryParam("page_token");
        IdentityQueries.EnumeratePage page;
        try {
            page = queries.enumerate(identity, prefix, limit, token);
        } catch (IllegalArgumentException | io.jolt.stream.protocol.DecodeException e) {
            throw new ApiError(ApiError.Code.BAD_PAGE_TOKEN, "page_token is not one this identity's enumeration gave: " + e.getMessage());
        }
        if (page.records().isEmpty() && token == null) {
            requireKnown(identity);
        }
        ObjectNode body = JSON.createObjectNode().put("identity", identity).put("prefix", prefix);
        ArrayNode records = body.putArray("records");
        for (AppendRecord r : page.records()) {
            records.addObject().put("path", r.path()).put("content_id", r.contentId()).put("device_id", r.deviceId())
                    .put("device_sequence", new java.math.BigInteger(Long.toUnsignedString(r.deviceSequence())))
                    .put("created_at", new java.math.BigInteger(Long.toUnsignedString(r.createdAt())))
                    .put("entry_hash", r.entryHash().hex());
        }
        body.put("next_page_token", page.nextPageToken());
        json(ctx, body);
    }

    private void identity(Context ctx, String identity) {
        MergedState state = queries.state(identity)
                .orElseThrow(() -> new ApiError(ApiError.Code.IDENTITY_NOT_FOUND, "no records of " + identity + " have been received"));
        ctx.contentType("application/json").result(MergedStateJson.write(state));
    }

    private void conflicts(Context ctx, String identity) {
        MergedState state = queries.state(identity)
                .orElseThrow(() -> new ApiError(ApiError.Code.IDENTITY_NOT_FOUND, "no records of " + identity + " have been received"));
        ObjectNode body = JSON.createObjectNode().put("identity", identity);
        ArrayNode paths = body.putArray("singletons");
        for (SingletonState s : state.singletons()) {
            if (!s.conflicts().isEmpty()) {
                ObjectNode p = paths.addObject().put("path", s.path()).put("state", s.isTombstoned() ? "tombstoned" : "present");
                p.set("head", head(s.head()));
                ArrayNode losers = p.putArray("conflicts");
                s.conflicts().forEach(c -> losers.add(head(Head.of(c)).put("content_id", SingletonState.contentIdOf(c))));
            }
        }
        ArrayNode equivocations = body.putArray("equivocations");
        state.equivocations().forEach(e -> {
            ObjectNode node = equivocations.addObject().put("device_id", e.deviceId())
                    .put("device_sequence", new java.math.BigInteger(Long.toUnsignedString(e.deviceSequence())));
            ArrayNode hashes = node.putArray("entry_hashes");
            e.entryHashes().forEach(h -> hashes.add(h.hex()));
        });
        json(ctx, body);
    }

    private void records(Context ctx) {
        byte[] body = ctx.bodyAsBytes();
        if (body.length > MAX_BODY_BYTES) {
            throw new ApiError(ApiError.Code.BODY_TOO_LARGE, "at most " + MAX_BODY_BYTES + " bytes per request");
        }
        List<byte[]> lines = splitLines(body);
        List<RecordIngest.LineResult> results = ingest.ingest(lines);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode array = out.putArray("results");
        int accepted = 0;
        for (RecordIngest.LineResult r : results) {
            ObjectNode node = array.addObject().put("line", r.line()).put("accepted", r.accepted());
            if (r.accepted()) {
                accepted++;
                node.put("topic", r.topic()).put("partition", r.partition()).put("offset", r.offset());
            } else {
                node.put("reason", r.reason()).put("detail", r.detail());
                Counter.builder("jolt.api.records.rejected").tag("reason", r.reason()).register(metrics).increment();
            }
        }
        Counter.builder("jolt.api.records.accepted").register(metrics).increment(accepted);
        out.put("accepted", accepted).put("rejected", results.size() - accepted);
        // 200: every line accepted; 207: some were; 422: none was.
        int status = accepted == results.size() ? 200 : accepted > 0 ? 207 : 422;
        ctx.status(status).contentType("application/json").result(out.toString());
    }

    static final String SYNC_CONTENT_TYPE = "application/vnd.jolt.device-writer-sync";

    /**
     * Delta sync (PROTOCOL §8): a binary request in, a binary response out. Records pushed inside
     * the request are produced to the input topics like any other input and do not change this
     * response. Requests for identities another instance owns are forwarded there.
     */
    private void sync(Context ctx) throws Exception {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new ApiError(ApiError.Code.NOT_READY, "the service is " + streams.state() + ", not RUNNING");
        }
        SyncRequest request;
        try {
            request = SyncRequest.decode(ctx.bodyAsBytes());
        } catch (io.jolt.stream.protocol.DecodeException e) {
            throw new ApiError(ApiError.Code.BAD_SYNC_REQUEST, "not a device-writer sync request: " + e.getMessage());
        }
        Optional<HostInfo> owner = remoteOwner(ctx, request.identity());
        if (owner.isPresent()) {
            forward(ctx, owner.get(), HttpRequest.BodyPublishers.ofByteArray(ctx.bodyAsBytes()), "POST");
            return;
        }
        if (ctx.header(FORWARDED) == null) {
            ingestPushed(request);
        }
        SyncResponse response;
        try {
            response = SyncResponder.answer(queries.syncHistory(request.identity()).orElse(null), request, syncLimits).response();
        } catch (HistoryForgottenException e) {
            ObjectNode details = JSON.createObjectNode().put("device_id", e.deviceId())
                    .put("floor_sequence", Long.toUnsignedString(e.floor().sequence())).put("floor_entry_hash", e.floor().hash().hex());
            throw new ApiError(ApiError.Code.HISTORY_FORGOTTEN, e.getMessage(), details);
        }
        ctx.contentType(SYNC_CONTENT_TYPE).result(response.encode());
    }

    private void ingestPushed(SyncRequest request) {
        List<org.apache.kafka.clients.producer.ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (SyncRequest.SignedBytes a : request.pushedAuthority()) {
            try {
                records.add(ingest.authority(io.jolt.stream.protocol.AuthorityRecord.decode(a.body(), a.signature())));
            } catch (io.jolt.stream.protocol.DecodeException | IllegalArgumentException e) {
                Counter.builder("jolt.api.sync.pushed.unreadable").register(metrics).increment();
            }
        }
        for (List<SyncRequest.SignedBytes> log : request.pushedLogs()) {
            for (SyncRequest.SignedBytes e : log) {
                try {
                    records.add(ingest.entry(io.jolt.stream.protocol.Entry.decode(e.body(), e.signature())));
                } catch (io.jolt.stream.protocol.DecodeException | IllegalArgumentException ex) {
                    Counter.builder("jolt.api.sync.pushed.unreadable").register(metrics).increment();
                }
            }
        }
        records.forEach(ingest::send);
    }

    private void requireKnown(String identity) {
        if (!queries.knows(identity)) {
            throw new ApiError(ApiError.Code.IDENTITY_NOT_FOUND, "no records of " + identity + " have been received");
        }
    }

    /** JSON Lines: split on LF; a final line needs no terminator. */
    private static List<byte[]> splitLines(byte[] body) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < body.length; i++) {
            if (body[i] == '\n') {
                lines.add(java.util.Arrays.copyOfRange(body, start, i));
                start = i + 1;
            }
        }
        if (start < body.length) {
            lines.add(java.util.Arrays.copyOfRange(body, start, body.length));
        }
        return lines;
    }

    private static int intParam(Context ctx, String name, int fallback, int min, int max) {
        String value = ctx.queryParam(name);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < min || parsed > max) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new ApiError(ApiError.Code.BAD_PARAMETER, name + " must be an integer from " + min + " to " + max);
        }
    }

    static ObjectNode head(Head head) {
        return JSON.createObjectNode().put("device_id", head.deviceId())
                .put("device_sequence", new java.math.BigInteger(Long.toUnsignedString(head.deviceSequence())))
                .put("entry_hash", head.entryHash().hex());
    }

    private static void json(Context ctx, ObjectNode body) {
        ctx.contentType("application/json").result(body.toString());
    }

    private static void error(Context ctx, ApiError e) {
        ctx.status(e.code.status).contentType("application/json").result(errorBody(e.code.wireName(), e.getMessage(), e.details));
    }

    private static String errorBody(String code, String message, Object details) {
        ObjectNode error = JSON.createObjectNode();
        ObjectNode inner = error.putObject("error").put("code", code).put("message", message);
        if (details instanceof ObjectNode d) {
            inner.set("details", d);
        }
        return error.toString();
    }

    public PrometheusMeterRegistry metrics() {
        return metrics;
    }

    @Override
    public void close() {
        app.stop();
        metrics.close();
    }
}
