package io.jolt.stream.api;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may do what over HTTP. Every route has a {@link HttpRole} (ingest, sync, read, analytics,
 * metrics) or none (health, probes, {@code /openapi.json}, the schema registry: always open). A
 * role is open or closed ({@code jolt.http.access.ROLE}; sync may also be closed only to requests
 * that push records, {@code pushes}); a closed role lets in the credentials configured for it
 * ({@code jolt.http.auth.ROLE.token}, a bearer token; {@code jolt.http.auth.ROLE.basic},
 * {@code user:password}) and the shared ones ({@code jolt.http.auth.token},
 * {@code jolt.http.auth.basic}), which let into every role.
 *
 * <p>The defaults are the service's behaviour before roles: with no credential configured at all
 * every route is open (for {@code jolt demo}); with any, ingest and metrics are closed, sync is
 * closed to pushes, and reads and analytics are open. A closed role no credential lets into is
 * refused at start: it would let nobody in. A request without credentials a closed role lets in
 * (none, unknown ones, or another role's) gets 401 {@code unauthorized} with
 * {@code WWW-Authenticate}; credentials are compared in constant time. The credential a request
 * carries also names its client for the edge's quotas ({@link EdgeQuotas}).
 */
public final class HttpAccess {
    /** The shared credentials, let into every role (typed, defaulted and documented in the service's configuration). */
    public static final String TOKEN = "jolt.http.auth.token";
    public static final String BASIC = "jolt.http.auth.basic";

    /** Whether a role's routes check credentials. */
    public enum Mode {
        /** Anyone. */
        OPEN,
        /** Only credentials let into the role. */
        CLOSED,
        /** Sync only: requests that push records are closed, those that only ask are open. */
        PUSHES;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Mode of(HttpRole role, String value) {
            for (Mode mode : values()) {
                if (mode.key().equals(value.strip()) && (mode != PUSHES || role == HttpRole.SYNC)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException(role.accessSetting() + " must be open or closed" + (role == HttpRole.SYNC ? " or pushes" : "")
                    + ", not " + value);
        }
    }

    /**
     * A credential that is let in: the Authorization header value it is sent as, the name it goes
     * by in quotas and metrics ({@code token}, {@code token:ROLE}, or {@code basic:USER}; never the
     * secret), and the roles it lets into.
     */
    private record Credential(byte[] header, String principal, Set<HttpRole> roles) {}

    private final List<Credential> accepted;
    private final Map<HttpRole, Mode> modes;

    private HttpAccess(List<Credential> accepted, Map<HttpRole, Mode> modes) {
        this.accepted = accepted;
        this.modes = modes;
    }

    public static HttpAccess from(Function<String, String> config) {
        // By the header they are sent as: one secret configured for two roles is one credential let into both.
        Map<String, Credential> byHeader = new LinkedHashMap<>();
        add(byHeader, config, TOKEN, BASIC, "token", EnumSet.allOf(HttpRole.class));
        for (HttpRole role : HttpRole.values()) {
            add(byHeader, config, role.tokenSetting(), role.basicSetting(), "token:" + role.key(), EnumSet.of(role));
        }
        List<Credential> accepted = List.copyOf(byHeader.values());
        Map<HttpRole, Mode> modes = new EnumMap<>(HttpRole.class);
        for (HttpRole role : HttpRole.values()) {
            String value = config.apply(role.accessSetting());
            boolean explicit = value != null && !value.isBlank();
            Mode mode = explicit ? Mode.of(role, value) : role.byDefault();
            if (mode != Mode.OPEN && accepted.stream().noneMatch(c -> c.roles().contains(role))) {
                if (explicit || !accepted.isEmpty()) {
                    throw new IllegalArgumentException(role.accessSetting() + " is " + mode.key() + " but no credential lets into the role "
                            + role.key() + ": set " + role.tokenSetting() + " or " + role.basicSetting() + " (or the shared " + TOKEN + " or "
                            + BASIC + "), or make it open");
                }
                // No credential at all and nothing closed by hand: open, as for jolt demo.
                mode = Mode.OPEN;
            }
            modes.put(role, mode);
        }
        return new HttpAccess(accepted, modes);
    }

    private static void add(Map<String, Credential> byHeader, Function<String, String> config, String tokenKey, String basicKey, String tokenName,
            Set<HttpRole> roles) {
        String token = config.apply(tokenKey);
        if (token != null && !token.isBlank()) {
            add(byHeader, "Bearer " + token.strip(), tokenName, roles);
        }
        String basic = config.apply(basicKey);
        if (basic != null && !basic.isBlank()) {
            if (!basic.contains(":")) {
                throw new IllegalArgumentException(basicKey + " must be user:password");
            }
            String userPassword = basic.strip();
            add(byHeader, "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8)),
                    "basic:" + userPassword.substring(0, userPassword.indexOf(':')), roles);
        }
    }

    private static void add(Map<String, Credential> byHeader, String header, String principal, Set<HttpRole> roles) {
        Credential known = byHeader.get(header);
        Set<HttpRole> all = EnumSet.copyOf(roles);
        if (known != null) {
            all.addAll(known.roles());
        }
        byHeader.put(header, new Credential(header.getBytes(StandardCharsets.UTF_8), known == null ? principal : known.principal(), all));
    }

    /** Whether the role's routes check credentials, and for sync, which requests. */
    public Mode mode(HttpRole role) {
        return modes.get(role);
    }

    /** The names of the configured credentials: the clients quotas may know by name. */
    List<String> principals() {
        return accepted.stream().map(Credential::principal).distinct().toList();
    }

    /** 401 when the role is closed and the request carries no credentials let into it. */
    void require(HttpRole role, Context ctx) {
        if (modes.get(role) == Mode.CLOSED) {
            check(role, ctx);
        }
    }

    /** For a sync request that pushes records: 401 unless sync is open or the request carries credentials let into it. */
    void requireToPush(Context ctx) {
        if (modes.get(HttpRole.SYNC) != Mode.OPEN) {
            check(HttpRole.SYNC, ctx);
        }
    }

    private void check(HttpRole role, Context ctx) {
        if (matching(ctx).filter(c -> c.roles().contains(role)).isEmpty()) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"jolt\", Basic realm=\"jolt\"");
            throw new ApiError(ApiError.Code.UNAUTHORIZED, "this request is of the role " + role.key() + ": it needs credentials let into it ("
                    + role.tokenSetting() + ", " + role.basicSetting() + ", or the shared " + TOKEN + ", " + BASIC + ")");
        }
    }

    /**
     * The name of the configured credential the request carries, compared in constant time with
     * every one; empty when it carries none of them (or none is configured).
     */
    Optional<String> principal(Context ctx) {
        return matching(ctx).map(Credential::principal);
    }

    private Optional<Credential> matching(Context ctx) {
        String authorization = ctx.header("Authorization");
        if (authorization == null) {
            return Optional.empty();
        }
        byte[] given = authorization.strip().getBytes(StandardCharsets.UTF_8);
        Credential match = null;
        for (Credential c : accepted) {
            if (MessageDigest.isEqual(c.header(), given)) {
                match = c;
            }
        }
        return Optional.ofNullable(match);
    }
}
