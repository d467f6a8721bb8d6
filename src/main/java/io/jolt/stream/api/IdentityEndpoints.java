package io.jolt.stream.api;

import io.javalin.http.Context;
import io.jolt.stream.processor.IdentityQueries;
import io.jolt.stream.processor.store.IdentityStoreView;
import io.jolt.stream.protocol.AppendRecord;
import io.jolt.stream.protocol.DecodeException;
import io.jolt.stream.protocol.Equivocation;
import io.jolt.stream.protocol.JoltPath;
import io.jolt.stream.protocol.MergedState;
import io.jolt.stream.protocol.Resolution;
import io.jolt.stream.protocol.SingletonState;
import io.jolt.stream.protocol.json.JsonOut;
import io.jolt.stream.protocol.json.MergedStateJson;
import java.util.Optional;

/**
 * The read side of the API, answered from this instance's stores (routing to the owner happens
 * before): resolve, enumerate, the merged state and the conflicts of an identity. Every piece of
 * merged state is written by {@link MergedStateJson}, as {@code jolt merge} writes it.
 */
final class IdentityEndpoints {
    private final IdentityQueries queries;

    IdentityEndpoints(IdentityQueries queries) {
        this.queries = queries;
    }

    void resolve(Context ctx, String identity) {
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
            throw new ApiError(ApiError.Code.PATH_TOMBSTONED, path + " is tombstoned", g -> {
                g.writeFieldName("head");
                MergedStateJson.writeHead(g, t.head());
                g.writeNumberField("conflict_count", t.conflictCount());
            });
        }
        Resolution.Present p = (Resolution.Present) resolution;
        json(ctx, JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("identity", identity);
            g.writeStringField("path", path);
            g.writeStringField("state", "present");
            g.writeStringField("content_id", p.contentId());
            g.writeFieldName("head");
            MergedStateJson.writeHead(g, p.head());
            g.writeNumberField("conflict_count", p.conflictCount());
            g.writeEndObject();
        }));
    }

    void enumerate(Context ctx, String identity) {
        String prefix = Optional.ofNullable(ctx.queryParam("prefix")).orElse("/");
        if (!JoltPath.isPrefix(prefix)) {
            throw new ApiError(ApiError.Code.PREFIX_NOT_CANONICAL, "not a canonical prefix: " + prefix);
        }
        int limit = intParam(ctx, "limit", 100, 1, 1000);
        String token = Optional.ofNullable(ctx.queryParam("page_token")).filter(t -> !t.isEmpty()).orElse(null); // page_token= : the first page
        IdentityStoreView.AppendPage page;
        try {
            page = queries.enumerate(identity, prefix, limit, token);
        } catch (IllegalArgumentException | DecodeException e) {
            throw new ApiError(ApiError.Code.BAD_PAGE_TOKEN, "page_token is not one this identity's enumeration gave: " + e.getMessage());
        }
        if (page.records().isEmpty() && token == null) {
            requireKnown(identity);
        }
        json(ctx, JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("identity", identity);
            g.writeStringField("prefix", prefix);
            g.writeArrayFieldStart("records");
            for (AppendRecord r : page.records()) {
                MergedStateJson.writeAppend(g, r);
            }
            g.writeEndArray();
            JsonOut.stringOrNull(g, "next_page_token", page.nextPageToken());
            g.writeEndObject();
        }));
    }

    void identity(Context ctx, String identity) {
        json(ctx, MergedStateJson.write(state(identity)));
    }

    /** The singleton paths with losing active heads, and the equivocations. */
    void conflicts(Context ctx, String identity) {
        MergedState state = state(identity);
        json(ctx, JsonOut.generate(g -> {
            g.writeStartObject();
            g.writeStringField("identity", identity);
            g.writeArrayFieldStart("singletons");
            for (SingletonState s : state.singletons()) {
                if (!s.conflicts().isEmpty()) {
                    MergedStateJson.writeSingleton(g, s);
                }
            }
            g.writeEndArray();
            g.writeArrayFieldStart("equivocations");
            for (Equivocation e : state.equivocations()) {
                MergedStateJson.writeEquivocation(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        }));
    }

    private MergedState state(String identity) {
        return queries.state(identity).orElseThrow(() -> unknown(identity));
    }

    private void requireKnown(String identity) {
        if (!queries.knows(identity)) {
            throw unknown(identity);
        }
    }

    private static ApiError unknown(String identity) {
        return new ApiError(ApiError.Code.IDENTITY_NOT_FOUND, "no records of " + identity + " have been received");
    }

    static int intParam(Context ctx, String name, int fallback, int min, int max) {
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

    private static void json(Context ctx, String body) {
        ctx.contentType("application/json").result(body);
    }
}
