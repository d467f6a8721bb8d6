package io.jolt.stream.api;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * Who may write ({@code POST /v1/records}, records pushed inside a sync request) and scrape
 * {@code /metrics}: anyone (the default, for {@code jolt demo}), or a caller presenting the
 * configured bearer token ({@code jolt.http.auth.token}) or basic credentials
 * ({@code jolt.http.auth.basic}, {@code user:password}). Reads of merged state stay open: they
 * are what a provider serves to everyone.
 */
public final class HttpAccess {
    /** The settings it reads (typed, defaulted and documented in the service's configuration). */
    public static final String TOKEN = "jolt.http.auth.token";
    public static final String BASIC = "jolt.http.auth.basic";

    /** The Authorization header values that are let in; empty: no check. */
    private final List<byte[]> accepted;

    private HttpAccess(List<byte[]> accepted) {
        this.accepted = accepted;
    }

    public static HttpAccess from(Function<String, String> config) {
        List<byte[]> accepted = new ArrayList<>();
        String token = config.apply(TOKEN);
        if (token != null && !token.isBlank()) {
            accepted.add(("Bearer " + token.strip()).getBytes(StandardCharsets.UTF_8));
        }
        String basic = config.apply(BASIC);
        if (basic != null && !basic.isBlank()) {
            if (!basic.contains(":")) {
                throw new IllegalArgumentException(BASIC + " must be user:password");
            }
            accepted.add(("Basic " + Base64.getEncoder().encodeToString(basic.strip().getBytes(StandardCharsets.UTF_8)))
                    .getBytes(StandardCharsets.UTF_8));
        }
        return new HttpAccess(List.copyOf(accepted));
    }

    boolean checked() {
        return !accepted.isEmpty();
    }

    /** 401 unless the request carries accepted credentials (compared in constant time). */
    void require(Context ctx) {
        if (!permits(ctx.header("Authorization"))) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"jolt\", Basic realm=\"jolt\"");
            throw new ApiError(ApiError.Code.UNAUTHORIZED, "this request needs credentials (a bearer token or basic auth)");
        }
    }

    private boolean permits(String authorization) {
        if (accepted.isEmpty()) {
            return true;
        }
        if (authorization == null) {
            return false;
        }
        byte[] given = authorization.strip().getBytes(StandardCharsets.UTF_8);
        boolean match = false;
        for (byte[] a : accepted) {
            match |= MessageDigest.isEqual(a, given);
        }
        return match;
    }
}
