package io.jolt.stream.api;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who may write ({@code POST /v1/records}, records pushed inside a sync request) and scrape
 * {@code /metrics}: anyone (the default, for {@code jolt demo}), or a caller presenting the
 * configured bearer token ({@code jolt.http.auth.token}) or basic credentials
 * ({@code jolt.http.auth.basic}, {@code user:password}). Reads of merged state stay open: they
 * are what a provider serves to everyone. The credential a request carries also names its client
 * for the edge's quotas ({@link EdgeQuotas}).
 */
public final class HttpAccess {
    /** The settings it reads (typed, defaulted and documented in the service's configuration). */
    public static final String TOKEN = "jolt.http.auth.token";
    public static final String BASIC = "jolt.http.auth.basic";

    /**
     * A credential that is let in: the Authorization header value it is sent as, and the name it
     * goes by in quotas and metrics ({@code token}, or {@code basic:USER}; never the secret).
     */
    private record Credential(byte[] header, String principal) {}

    /** Empty: no check. */
    private final List<Credential> accepted;

    private HttpAccess(List<Credential> accepted) {
        this.accepted = accepted;
    }

    public static HttpAccess from(Function<String, String> config) {
        List<Credential> accepted = new ArrayList<>();
        String token = config.apply(TOKEN);
        if (token != null && !token.isBlank()) {
            accepted.add(new Credential(("Bearer " + token.strip()).getBytes(StandardCharsets.UTF_8), "token"));
        }
        String basic = config.apply(BASIC);
        if (basic != null && !basic.isBlank()) {
            if (!basic.contains(":")) {
                throw new IllegalArgumentException(BASIC + " must be user:password");
            }
            String userPassword = basic.strip();
            accepted.add(new Credential(("Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8)))
                    .getBytes(StandardCharsets.UTF_8), "basic:" + userPassword.substring(0, userPassword.indexOf(':'))));
        }
        return new HttpAccess(List.copyOf(accepted));
    }

    boolean checked() {
        return !accepted.isEmpty();
    }

    /** The names of the configured credentials: the clients quotas may know by name. */
    List<String> principals() {
        return accepted.stream().map(Credential::principal).toList();
    }

    /** 401 unless the request carries accepted credentials (compared in constant time). */
    void require(Context ctx) {
        if (!accepted.isEmpty() && principal(ctx).isEmpty()) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"jolt\", Basic realm=\"jolt\"");
            throw new ApiError(ApiError.Code.UNAUTHORIZED, "this request needs credentials (a bearer token or basic auth)");
        }
    }

    /**
     * The name of the configured credential the request carries, compared in constant time with
     * every one; empty when it carries none of them (or none is configured).
     */
    Optional<String> principal(Context ctx) {
        String authorization = ctx.header("Authorization");
        if (authorization == null) {
            return Optional.empty();
        }
        byte[] given = authorization.strip().getBytes(StandardCharsets.UTF_8);
        String match = null;
        for (Credential c : accepted) {
            if (MessageDigest.isEqual(c.header(), given)) {
                match = c.principal();
            }
        }
        return Optional.ofNullable(match);
    }
}
